// chain_udp.cc -- ns-3 3.44 reference for airtcp: k-hop 802.11 chain n0 -> n1 -> ... -> nk with
// one saturating UDP flow n0 -> nk.
//
// All nodes share one collision domain (FixedRssLossModel: every node hears every other node at
// --rssDbm), so the chain is "forced" only by routing: each node i < k has an
// Ipv4StaticRouting host route "nk via n(i+1)", hence every datagram is transmitted k times
// (once per hop) and all k transmitters contend for the same medium. Ad hoc MAC
// (ns3::AdhocWifiMac): no beacons/association. Static ARP, no queue disc, IPv4 only (common.h).
//
// The source n0 is saturated (its WifiMacQueue is kept at --queuePackets MPDUs); relays forward
// whatever they receive; their WifiMacQueues (size --queuePackets) may overflow, reported as
// mac_drops.FAILED_ENQUEUE in the JSON.
//
// Example:
//   ./chain_udp --hops=5 --standard=80211g --dataRateMbps=54 --basicRateMbps=6 \
//       --payloadBytes=1500 --durationS=20 --warmupS=2 --seed=1 --retryLimit=6

#include "common.h"

using namespace ns3;
using namespace airtcp_bench;

int
main(int argc, char* argv[])
{
    CommonArgs a;
    uint32_t hops = 5;
    CommandLine cmd(__FILE__);
    cmd.AddValue("hops", "number of hops k (nodes n0..nk)", hops);
    a.Register(cmd);
    cmd.Parse(argc, argv);
    a.Validate();
    NS_ABORT_MSG_IF(hops < 1, "--hops must be >= 1");

    RngSeedManager::SetSeed(a.seed);
    RngSeedManager::SetRun(a.run);
    g_stats.warmup = Seconds(a.warmupS);

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

    // Hop-by-hop forwarding: host route to nk via the next node (more specific than the
    // connected /24 route, so Ipv4StaticRouting's longest-prefix match selects it).
    Ipv4StaticRoutingHelper srh;
    const Ipv4Address dst = ifs.GetAddress(hops);
    for (uint32_t i = 0; i < hops; ++i)
    {
        auto ipv4 = nodes.Get(i)->GetObject<Ipv4>();
        auto rt = srh.GetStaticRouting(ipv4);
        rt->AddHostRouteTo(dst, ifs.GetAddress(i + 1), ifs.Get(i).second);
    }

    const uint16_t port = 9;
    CountingSink sink;
    sink.Install(nodes.Get(hops), port);

    auto app = CreateObject<SaturatingSender>();
    app->Setup(InetSocketAddress(dst, port), a.payloadBytes, devices.Get(0), a.qos, a.queuePackets);
    nodes.Get(0)->AddApplication(app);
    app->SetStartTime(MilliSeconds(1));
    app->SetStopTime(Seconds(a.durationS));

    const double wall = TimedRun(a.durationS);
    const uint64_t events = Simulator::GetEventCount();

    const double window = a.durationS - a.warmupS;
    const double goodput = sink.m_totalBytes * 8.0 / window;
    auto phy = DynamicCast<WifiNetDevice>(devices.Get(0))->GetPhy();
    std::cout << JsonCommon(a, goodput, {goodput}, "per_station_goodput_bps", wall, events, phy)
              << ", \"hops\": " << hops << "}" << std::endl;

    Simulator::Destroy();
    return 0;
}
