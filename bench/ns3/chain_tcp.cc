// chain_tcp.cc -- ns-3 3.44 reference for airtcp: k-hop 802.11 chain n0 -> n1 -> ... -> nk with
// one bulk TCP flow n0 -> nk (BulkSendApplication at n0, PacketSink at nk).
//
// As chain_udp.cc: all nodes in one collision domain (FixedRssLossModel), the chain is forced
// by Ipv4StaticRouting host routes only. Data go "nk via n(i+1)" at every node i < k; the TCP
// ACKs come back "n0 via n(i-1)" at every node i > 0, so every segment and every ACK is sent k
// times, each hop contending for the same medium. Ad hoc MAC, static ARP, no queue disc, IPv4
// only (common.h). Relays forward through TrafficControlLayer::Send: a full WifiMacQueue
// (--queuePackets) drops there (queue_full_drops in the JSON).
//
// TCP: tcp_common.h. --retryLimit = MAC retransmissions (attempts = retryLimit + 1).
//
// Example:
//   ./chain_tcp --hops=5 --standard=80211g --dataRateMbps=54 --basicRateMbps=6 --cc=newreno \
//       --retryLimit=7 --durationS=105 --warmupS=5 --seed=1

#include "tcp_common.h"

using namespace ns3;
using namespace airtcp_bench;

int
main(int argc, char* argv[])
{
    CommonArgs a;
    a.standard = "80211g";
    TcpArgs t;
    uint32_t hops = 5;
    double startS = 0.001;
    CommandLine cmd(__FILE__);
    cmd.AddValue("hops", "number of hops k (nodes n0..nk)", hops);
    a.Register(cmd);
    t.Register(cmd);
    cmd.AddValue("startS", "time the bulk sender opens its connection (s)", startS);
    cmd.Parse(argc, argv);
    a.payloadBytes = t.mss; // echoed in the JSON config; the segment payload is --mss
    a.Validate();
    t.Validate();
    NS_ABORT_MSG_IF(hops < 1, "--hops must be >= 1");
    NS_ABORT_MSG_IF(startS < 0 || startS >= a.durationS, "--startS out of range");

    RngSeedManager::SetSeed(a.seed);
    RngSeedManager::SetRun(a.run);
    g_stats.warmup = Seconds(a.warmupS);
    t.Apply(); // before the internet stack is installed

    NodeContainer nodes;
    nodes.Create(hops + 1);

    // n0..nk on a line, 1 m apart (propagation delay only; the loss model is distance-free).
    MobilityHelper mobility;
    mobility.SetPositionAllocator("ns3::GridPositionAllocator",
                                  "MinX",
                                  DoubleValue(0.0),
                                  "MinY",
                                  DoubleValue(0.0),
                                  "DeltaX",
                                  DoubleValue(1.0),
                                  "DeltaY",
                                  DoubleValue(1.0),
                                  "GridWidth",
                                  UintegerValue(hops + 1),
                                  "LayoutType",
                                  StringValue("RowFirst"));
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(nodes);

    NetDeviceContainer devices = BuildWifi(nodes, a);
    Ipv4InterfaceContainer ifs = BuildIp(nodes, devices);
    CountTcDropsAfterWarmup(nodes);

    // Hop-by-hop host routes in both directions (more specific than the connected /24 route,
    // so Ipv4StaticRouting's longest-prefix match selects them).
    Ipv4StaticRoutingHelper srh;
    const Ipv4Address dst = ifs.GetAddress(hops);
    const Ipv4Address src = ifs.GetAddress(0);
    for (uint32_t i = 0; i <= hops; ++i)
    {
        auto rt = srh.GetStaticRouting(nodes.Get(i)->GetObject<Ipv4>());
        const uint32_t itf = ifs.Get(i).second;
        if (i < hops)
        {
            rt->AddHostRouteTo(dst, ifs.GetAddress(i + 1), itf); // data
        }
        if (i > 0)
        {
            rt->AddHostRouteTo(src, ifs.GetAddress(i - 1), itf); // TCP ACKs
        }
    }

    const uint16_t port = 5001;
    const Time start = Seconds(startS);
    auto [bulk, sink] = InstallBulkFlow(nodes.Get(0),
                                        nodes.Get(hops),
                                        dst,
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
              << ", \"hops\": " << hops << JsonTcp(t, flow, window) << "}" << std::endl;

    Simulator::Destroy();
    return 0;
}
