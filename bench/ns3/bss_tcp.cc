// bss_tcp.cc -- ns-3 3.44 reference for airtcp: one station sends one bulk TCP flow to the
// "AP" (BulkSendApplication at the station, PacketSink at the AP), 802.11a/b/g.
//
// Topology and MAC/PHY as bss_saturation.cc with one station (common.h): node 0 = AP (receiver
// of the data, sender of the TCP ACKs), node 1 = STA, ad hoc MAC (no beacons/association),
// FixedRssLossModel (no channel errors), ACKs at --basicRateMbps, static ARP, no queue disc
// (a full WifiMacQueue of --queuePackets packets drops at the traffic-control layer, like
// airtcp's DropTail interface queue). TCP data segments AND TCP ACKs are WiFi DATA frames at
// --dataRateMbps and contend with each other (DCF).
//
// TCP: tcp_common.h (TcpArgs; defaults follow airtcp/Linux, not ns-3). --payloadBytes is ignored
// (the segment payload is --mss).
//
// Radio channel (optional, common.h RadioArgs): --distanceM=D > 0 puts the station D metres from
// the AP over a log-distance channel with an explicit error-rate model (--errorModel nist|yans,
// --fading none|rayleigh, --exponent, --referenceLossDb, --txPowerDbm, --noiseFigureDb; ns-3's
// defaults, as distance_udp.cc), so frames fail and the MAC drops MPDUs at the retry limit. The
// default --distanceM=0 keeps FixedRssLossModel at --rssDbm (no channel errors).
//
// Output: one JSON line (common.h JsonCommon + "tcp" and "tcp_config" objects).
//
// Example:
//   ./bss_tcp --standard=80211a --dataRateMbps=54 --basicRateMbps=6 --cc=newreno \
//       --delAckCount=1 --durationS=105 --warmupS=5 --seed=1
//   ./bss_tcp --standard=80211a --dataRateMbps=24 --cc=cubic --sack=1 --recovery=prr \
//       --distanceM=47 --errorModel=nist --durationS=20 --warmupS=2 --seed=1

#include "tcp_common.h"

using namespace ns3;
using namespace airtcp_bench;

int
main(int argc, char* argv[])
{
    CommonArgs a;
    TcpArgs t;
    RadioArgs r;
    double startS = 0.001;
    CommandLine cmd(__FILE__);
    a.Register(cmd);
    t.Register(cmd);
    r.Register(cmd);
    cmd.AddValue("startS", "time the bulk sender opens its connection (s)", startS);
    cmd.Parse(argc, argv);
    a.payloadBytes = t.mss; // echoed in the JSON config; the segment payload is --mss
    a.Validate();
    t.Validate();
    r.Validate();
    NS_ABORT_MSG_IF(startS < 0 || startS >= a.durationS, "--startS out of range");

    RngSeedManager::SetSeed(a.seed);
    RngSeedManager::SetRun(a.run);
    g_stats.warmup = Seconds(a.warmupS);
    t.Apply(); // before the internet stack is installed

    NodeContainer nodes;
    nodes.Create(2); // node 0 = AP (sink), node 1 = STA (bulk sender)

    MobilityHelper mobility;
    auto pos = CreateObject<ListPositionAllocator>();
    pos->Add(Vector(0, 0, 0));
    pos->Add(Vector(r.Enabled() ? r.distanceM : 1.0, 0, 0));
    mobility.SetPositionAllocator(pos);
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(nodes);

    NetDeviceContainer devices = BuildWifi(nodes, a, &r);
    Ipv4InterfaceContainer ifs = BuildIp(nodes, devices);
    CountTcDropsAfterWarmup(nodes);

    const uint16_t port = 5001;
    const Time start = Seconds(startS);
    auto [bulk, sink] = InstallBulkFlow(nodes.Get(1),
                                        nodes.Get(0),
                                        ifs.GetAddress(0),
                                        port,
                                        t.mss,
                                        start,
                                        Seconds(a.durationS));
    TcpFlowStats flow;
    flow.Attach(bulk, sink, t.mss, start);

    const double wall = TimedRun(a.durationS);
    const uint64_t events = Simulator::GetEventCount();
    flow.Finish();

    const double window = a.durationS - a.warmupS;
    const double goodput = flow.RxBytes() * 8.0 / window;
    auto phy = DynamicCast<WifiNetDevice>(devices.Get(0))->GetPhy();
    std::cout << JsonCommon(a, goodput, {goodput}, "per_flow_goodput_bps", wall, events, phy)
              << ", \"stations\": 1" << JsonTcp(t, flow, window) << ", \"radio\": {\"distance_m\": "
              << r.distanceM << ", \"error_model\": \"" << (r.Enabled() ? r.errorModel : "default")
              << "\", \"fading\": \"" << r.fading << "\"}}" << std::endl;

    Simulator::Destroy();
    return 0;
}
