// bss_saturation.cc -- ns-3 3.44 reference for airtcp: N saturated 802.11 stations sending UDP
// to one receiver node ("AP") in a single collision domain.
//
// Topology: node 0 = receiver ("AP", pure receiver, never sends data), nodes 1..N = stations.
// All nodes use ns3::AdhocWifiMac (an IBSS): no beacons, probe/association exchanges or other
// management frames, so the medium carries only the stations' UDP DATA frames and the receiver's
// ACKs, exactly the frame sequence of the textbook saturation model (Bianchi). With an
// infrastructure BSS the AP's beacons (every 102.4 ms, at the basic rate, contending with EDCA
// AC_VO-like parameters) and the association handshake would add traffic a DCF model ignores.
//
// Channel: FixedRssLossModel (all frames received at --rssDbm, default -50 dBm, by every node),
// ConstantSpeedPropagationDelayModel (nodes within 1 m: delay of a few ns), YansWifiPhy by
// default. See common.h for the MAC/PHY configuration and NOTES.md for the ns-3 behaviours.
//
// Output: one JSON line on stdout (see common.h: JsonCommon()); with --phyTrace=FILE also every
// PPDU's start (bench/collision_shapes.py compares it with airtcp's mac_tx trace).
//
// Example:
//   ./bss_saturation --stations=10 --standard=80211a --dataRateMbps=54 --basicRateMbps=6 \
//       --payloadBytes=1500 --durationS=20 --warmupS=2 --seed=1 --qos=0 --retryLimit=6

#include "common.h"

using namespace ns3;
using namespace airtcp_bench;

// --phyTrace=FILE: one line per PPDU a node starts to send (WifiPhy "PhyTxPsduBegin"):
// "start_ns node kind retry duration_ns", kind D (data) or A (ACK) or O (other); for the
// frame-by-frame comparison with airtcp's mac_tx trace (bench/collision_shapes.py).
static std::FILE* g_phyTrace = nullptr;

static void
PhyTxPsduBegin(uint32_t node,
               WifiPhyBand band,
               WifiConstPsduMap psduMap,
               WifiTxVector txVector,
               double /* w */)
{
    const auto& psdu = psduMap.begin()->second;
    const WifiMacHeader& h = psdu->GetHeader(0);
    const char kind = h.IsData() ? 'D' : (h.IsAck() ? 'A' : 'O');
    const Time d = WifiPhy::CalculateTxDuration(psduMap, txVector, band);
    std::fprintf(g_phyTrace,
                 "%lld %u %c %d %lld\n",
                 static_cast<long long>(Simulator::Now().GetNanoSeconds()),
                 node,
                 kind,
                 h.IsRetry() ? 1 : 0,
                 static_cast<long long>(d.GetNanoSeconds()));
}

int
main(int argc, char* argv[])
{
    CommonArgs a;
    uint32_t stations = 10;
    CommandLine cmd(__FILE__);
    cmd.AddValue("stations", "number of saturated stations", stations);
    std::string phyTrace;
    cmd.AddValue("phyTrace", "write every PPDU's start to this file (see PhyTxPsduBegin)", phyTrace);
    a.Register(cmd);
    cmd.Parse(argc, argv);
    a.Validate();
    NS_ABORT_MSG_IF(stations < 1, "--stations must be >= 1");

    RngSeedManager::SetSeed(a.seed);
    RngSeedManager::SetRun(a.run);
    g_stats.warmup = Seconds(a.warmupS);

    NodeContainer nodes;
    nodes.Create(stations + 1); // node 0 is the receiver

    // Positions: receiver at the origin, stations on a circle of radius 1 m (all distances
    // <= 2 m; with FixedRssLossModel the distance only affects the propagation delay).
    MobilityHelper mobility;
    auto pos = CreateObject<ListPositionAllocator>();
    pos->Add(Vector(0, 0, 0));
    for (uint32_t i = 0; i < stations; ++i)
    {
        const double phi = 2 * M_PI * i / stations;
        pos->Add(Vector(std::cos(phi), std::sin(phi), 0));
    }
    mobility.SetPositionAllocator(pos);
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(nodes);

    NetDeviceContainer devices = BuildWifi(nodes, a);
    Ipv4InterfaceContainer ifs = BuildIp(nodes, devices);
    if (!phyTrace.empty())
    {
        g_phyTrace = std::fopen(phyTrace.c_str(), "w");
        NS_ABORT_MSG_IF(!g_phyTrace, "--phyTrace: cannot write " << phyTrace);
        for (uint32_t i = 0; i <= stations; ++i)
        {
            auto phy = DynamicCast<WifiNetDevice>(devices.Get(i))->GetPhy();
            phy->TraceConnectWithoutContext(
                "PhyTxPsduBegin",
                MakeBoundCallback(&PhyTxPsduBegin, i, phy->GetPhyBand()));
        }
    }

    const uint16_t port = 9;
    CountingSink sink;
    sink.Install(nodes.Get(0), port);

    std::vector<Ptr<SaturatingSender>> senders;
    for (uint32_t i = 1; i <= stations; ++i)
    {
        auto app = CreateObject<SaturatingSender>();
        app->Setup(InetSocketAddress(ifs.GetAddress(0), port),
                   a.payloadBytes,
                   devices.Get(i),
                   a.qos,
                   a.queuePackets);
        nodes.Get(i)->AddApplication(app);
        // all sources start at 1 ms; the initial backoff of every Txop was already drawn
        // at initialization (Txop::DoInitialize -> GenerateBackoff)
        app->SetStartTime(MilliSeconds(1));
        app->SetStopTime(Seconds(a.durationS));
        senders.push_back(app);
    }

    const double wall = TimedRun(a.durationS);
    const uint64_t events = Simulator::GetEventCount();

    const double window = a.durationS - a.warmupS;
    std::vector<double> perStation;
    for (uint32_t i = 1; i <= stations; ++i)
    {
        perStation.push_back(sink.m_bytes[ifs.GetAddress(i)] * 8.0 / window);
    }
    const double goodput = sink.m_totalBytes * 8.0 / window;
    auto phy = DynamicCast<WifiNetDevice>(devices.Get(0))->GetPhy();
    std::cout << JsonCommon(a, goodput, perStation, "per_station_goodput_bps", wall, events, phy)
              << ", \"stations\": " << stations << "}" << std::endl;

    Simulator::Destroy();
    if (g_phyTrace)
    {
        std::fclose(g_phyTrace);
    }
    return 0;
}
