// distance_udp.cc -- ns-3 3.44 reference for airtcp: ONE station saturating UDP toward a
// receiver node ("AP") at --distanceM metres over a real propagation channel, for comparing
// error-rate models and rate control against distance.
//
// Topology: node 0 = receiver ("AP", pure receiver) at the origin, node 1 = the station at
// (--distanceM, 0, 0). Both use ns3::AdhocWifiMac (no beacons, no association), as the other
// programs; the medium carries only the station's UDP DATA frames and the receiver's ACKs.
//
// Channel (instead of common.h's FixedRssLossModel):
//  * YansWifiChannel + LogDistancePropagationLossModel (Exponent --exponent, ReferenceLoss
//    --referenceLossDb at ReferenceDistance 1 m; the defaults 3 / 46.6777 dB / 1 m are ns-3's,
//    propagation-loss-model.cc:476-491) + ConstantSpeedPropagationDelayModel.
//  * --fading=rayleigh chains NakagamiPropagationLossModel with m0 = m1 = m2 = 1 (Rayleigh
//    power fading, an independent draw per frame and receiver) after the log-distance model.
//    WifiHelper::AssignStreams does not reach the channel (wifi-helper.cc:1279-1339), so the
//    channel's streams are assigned here explicitly (YansWifiChannel::AssignStreams).
//
// PHY: YansWifiPhy, TxPowerStart = TxPowerEnd = --txPowerDbm (ns-3 default 16.0206 dBm),
// RxNoiseFigure --noiseFigureDb (ns-3 default 7 dB), ns-3's default preamble detection
// (ThresholdPreambleDetectionModel: SNR >= 4 dB AND RSSI >= -82 dBm; --preambleMinRssiDbm
// changes the RSSI threshold for diagnostics), no frame capture model (ns-3 default).
// Error rate model (--errorModel): nist = ns3::NistErrorRateModel, yans =
// ns3::YansErrorRateModel, table = whatever YansWifiPhyHelper installs by default
// (yans-wifi-helper.cc:76 in 3.44: ns3::TableBasedErrorRateModel; see NOTES.md "Distance").
// The JSON echoes the type the helper's factory actually holds and, for the table model, its
// FallbackErrorRateModel, read from the wheel's libraries at run time.
//
// Rate control (--rateManager): constant = ns3::ConstantRateWifiManager (DataMode
// --dataRateMbps, ControlMode --basicRateMbps); arf / aarf / minstrel = ns3::ArfWifiManager /
// ns3::AarfWifiManager / ns3::MinstrelWifiManager with ns-3's default attributes. For all of
// them the BSS basic rate set is pinned to --basicRateMbps as in common.h (ACKs at the basic
// rate); for the adaptive managers the peer's operational rate set is every mode of the PHY,
// in PHY order, exactly what AdhocWifiMac's AddAllSupportedModes() would register
// (wifi-remote-station-manager.cc:382-395) minus its basic-set side effect.
// Note: MinstrelWifiManager ignores --retryLimit once initialised: its DoNeedRetransmission()
// uses its own retry chain (minstrel-wifi-manager.cc:963-987, CountRetries :439).
//
// Output: one JSON line on stdout. data_modes / ack_modes, attempts, failures, retry_drops and
// the phy_* counters count events after --warmupS only.
//
// Example:
//   ./distance_udp --distanceM=60 --standard=80211a --rateManager=minstrel --errorModel=nist \
//       --durationS=10 --warmupS=1 --seed=1

#include "common.h"

#include <algorithm>

using namespace ns3;
using namespace airtcp_bench;

namespace
{

/// Arguments of this program (the shared ones have the meaning of common.h's CommonArgs).
struct DistanceArgs
{
    std::string standard{"80211a"};
    std::string rateManager{"constant"}; ///< constant | arf | aarf | minstrel
    double dataRateMbps{54};             ///< constant only
    double basicRateMbps{6};
    std::string errorModel{"nist"}; ///< nist | yans | table
    std::string fading{"none"};     ///< none | rayleigh
    double distanceM{10};
    double exponent{3};
    double referenceLossDb{46.6777};
    double txPowerDbm{16.0206};
    double noiseFigureDb{7};
    double preambleMinRssiDbm{-82}; ///< ThresholdPreambleDetectionModel::MinimumRssi (default)
    uint32_t payloadBytes{1500};
    double durationS{10};
    double warmupS{1};
    uint32_t seed{1};
    uint32_t run{1};
    uint32_t retryLimit{6};
    uint32_t queuePackets{100};

    void Register(CommandLine& cmd)
    {
        cmd.AddValue("standard", "80211a | 80211b | 80211g", standard);
        cmd.AddValue("rateManager", "constant | arf | aarf | minstrel", rateManager);
        cmd.AddValue("dataRateMbps", "DATA rate for --rateManager=constant (Mbit/s)", dataRateMbps);
        cmd.AddValue("basicRateMbps", "basic rate = rate of ACK frames (Mbit/s)", basicRateMbps);
        cmd.AddValue("errorModel", "nist | yans | table (YansWifiPhyHelper default)", errorModel);
        cmd.AddValue("fading", "none | rayleigh (Nakagami m=1 after the log-distance loss)",
                     fading);
        cmd.AddValue("distanceM", "station-receiver distance (m)", distanceM);
        cmd.AddValue("exponent", "LogDistancePropagationLossModel::Exponent", exponent);
        cmd.AddValue("referenceLossDb",
                     "LogDistancePropagationLossModel::ReferenceLoss at 1 m (dB)",
                     referenceLossDb);
        cmd.AddValue("txPowerDbm", "WifiPhy TxPowerStart = TxPowerEnd (dBm)", txPowerDbm);
        cmd.AddValue("noiseFigureDb", "WifiPhy::RxNoiseFigure (dB)", noiseFigureDb);
        cmd.AddValue("preambleMinRssiDbm",
                     "ThresholdPreambleDetectionModel::MinimumRssi (dBm; ns-3 default -82)",
                     preambleMinRssiDbm);
        cmd.AddValue("payloadBytes", "UDP payload size (bytes)", payloadBytes);
        cmd.AddValue("durationS", "simulated time (s)", durationS);
        cmd.AddValue("warmupS", "counting starts at this time (s)", warmupS);
        cmd.AddValue("seed", "RngSeedManager seed", seed);
        cmd.AddValue("run", "RngSeedManager run number", run);
        cmd.AddValue("retryLimit",
                     "max retransmissions (attempts = retryLimit+1 = WifiMac::FrameRetryLimit)",
                     retryLimit);
        cmd.AddValue("queuePackets", "WifiMacQueue size (packets)", queuePackets);
    }

    void Validate() const
    {
        NS_ABORT_MSG_IF(standard != "80211a" && standard != "80211b" && standard != "80211g",
                        "--standard must be 80211a, 80211b or 80211g");
        NS_ABORT_MSG_IF(rateManager != "constant" && rateManager != "arf" &&
                            rateManager != "aarf" && rateManager != "minstrel",
                        "--rateManager must be constant, arf, aarf or minstrel");
        NS_ABORT_MSG_IF(errorModel != "nist" && errorModel != "yans" && errorModel != "table",
                        "--errorModel must be nist, yans or table");
        NS_ABORT_MSG_IF(fading != "none" && fading != "rayleigh",
                        "--fading must be none or rayleigh");
        NS_ABORT_MSG_IF(!(distanceM > 0), "--distanceM must be > 0");
        NS_ABORT_MSG_IF(!(exponent > 0), "--exponent must be > 0");
        NS_ABORT_MSG_IF(!(noiseFigureDb >= 0), "--noiseFigureDb must be >= 0");
        NS_ABORT_MSG_IF(warmupS < 0 || warmupS >= durationS, "need 0 <= --warmupS < --durationS");
        NS_ABORT_MSG_IF(queuePackets < 1, "--queuePackets must be >= 1");
        NS_ABORT_MSG_IF(payloadBytes < 1 || payloadBytes > 2200, "--payloadBytes out of range");
        ModeName(standard, basicRateMbps); // aborts on a rate the standard does not have
        if (rateManager == "constant")
        {
            ModeName(standard, dataRateMbps);
        }
    }
};

/// Counters specific to this program (common.h's g_stats holds the shared ones).
struct DistanceStats
{
    std::map<std::string, uint64_t> dataModes; ///< DATA PSDUs on air by mode, after warmup
    std::map<std::string, uint64_t> ackModes;  ///< Ack PSDUs on air by mode, after warmup
    uint64_t rxErrorsAp{0};                    ///< RxError at the receiver (DATA), after warmup
    uint64_t rxErrorsSta{0};                   ///< RxError at the station (ACKs), after warmup
    uint64_t snifferFrames{0}; ///< DATA PSDUs received OK at the receiver, after warmup
    double sumSignalDbm{0};
    double sumNoiseDbm{0};
    double sumSnrDb{0};
};

DistanceStats g_dist;

/// PhyTxPsduBegin: DATA attempts and mode counts, after warmup only (common.h's OnPsduTxBegin
/// counts modes over the whole run, which would mix in the rate controller's start-up).
void
OnTxBegin(WifiConstPsduMap psduMap, WifiTxVector txVector, double /*w*/)
{
    if (!InWindow())
    {
        return;
    }
    for (const auto& [staId, psdu] : psduMap)
    {
        const WifiMacHeader& hdr = psdu->GetHeader(0);
        if (hdr.IsData())
        {
            g_stats.dataAttempts++;
            g_dist.dataModes[txVector.GetMode().GetUniqueName()]++;
        }
        else if (hdr.IsAck())
        {
            g_dist.ackModes[txVector.GetMode().GetUniqueName()]++;
        }
    }
}

/// WifiPhyStateHelper RxError, bound with the node index (0 = receiver, 1 = station).
void
OnRxErrorAt(uint32_t node, Ptr<const Packet> p, double snr)
{
    OnPhyRxError(p, snr); // g_stats.phyRxErrors (total)
    if (InWindow())
    {
        (node == 0 ? g_dist.rxErrorsAp : g_dist.rxErrorsSta)++;
    }
}

/// MonitorSnifferRx at the receiver: fired only for PSDUs received successfully
/// (PhyEntity::EndReceivePayload, phy-entity.cc:736-746); signal = RX power, noise =
/// signal / SINR (phy-entity.cc:830-832), i.e. thermal noise x noise figure + interference.
void
OnSnifferRx(Ptr<const Packet> p,
            uint16_t /*freq*/,
            WifiTxVector /*txVector*/,
            MpduInfo /*aMpdu*/,
            SignalNoiseDbm sn,
            uint16_t /*staId*/)
{
    if (!InWindow())
    {
        return;
    }
    WifiMacHeader hdr;
    p->PeekHeader(hdr);
    if (!hdr.IsData())
    {
        return;
    }
    g_dist.snifferFrames++;
    g_dist.sumSignalDbm += sn.signal;
    g_dist.sumNoiseDbm += sn.noise;
    g_dist.sumSnrDb += sn.signal - sn.noise;
}

/// YansWifiPhyHelper with read access to its error-rate-model factory (protected member
/// WifiPhyHelper::m_errorRateModel, wifi-helper.h:295): lets the program report the type that
/// the helper really installs, including the helper's default.
class ProbedYansWifiPhyHelper : public YansWifiPhyHelper
{
  public:
    std::string ErrorRateModelType() const
    {
        return m_errorRateModel.front().GetTypeId().GetName();
    }

    /// For ns3::TableBasedErrorRateModel: the type of its FallbackErrorRateModel attribute,
    /// from an instance created by the helper's own factory; "" for other models.
    std::string FallbackType() const
    {
        auto model = m_errorRateModel.front().Create<ErrorRateModel>();
        if (!DynamicCast<TableBasedErrorRateModel>(model))
        {
            return "";
        }
        PointerValue fallback;
        model->GetAttribute("FallbackErrorRateModel", fallback);
        return fallback.Get<ErrorRateModel>()->GetInstanceTypeId().GetName();
    }
};

struct WifiSetup
{
    NetDeviceContainer devices;
    std::string errorRateModelType;
    std::string fallbackType;
    double rxPowerDbm{0}; ///< mean RX power of the log-distance model alone (no fading)
};

/**
 * Build the two WiFi devices (node 0 receiver, node 1 station). Follows common.h's
 * BuildWifi() (MAC queue, retry limit, ad hoc MAC, pinned basic rate set, traces) except for
 * the channel, the PHY parameters and the remote station manager.
 */
WifiSetup
BuildDistanceWifi(const NodeContainer& nodes, const DistanceArgs& a)
{
    WifiSetup out;
    const uint32_t frameRetryLimit = a.retryLimit + 1; // see common.h / NOTES.md (d)
    Config::SetDefault("ns3::WifiMacQueue::MaxSize",
                       QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, a.queuePackets)));
    Config::SetDefault("ns3::WifiMacQueue::MaxDelay", TimeValue(Seconds(1e6)));

    WifiHelper wifi;
    if (a.standard == "80211a")
    {
        wifi.SetStandard(WIFI_STANDARD_80211a);
    }
    else if (a.standard == "80211b")
    {
        wifi.SetStandard(WIFI_STANDARD_80211b);
    }
    else
    {
        wifi.SetStandard(WIFI_STANDARD_80211g);
    }
    const std::string basicMode = ModeName(a.standard, a.basicRateMbps);
    if (a.rateManager == "constant")
    {
        const std::string dataMode = ModeName(a.standard, a.dataRateMbps);
        wifi.SetRemoteStationManager("ns3::ConstantRateWifiManager",
                                     "DataMode",
                                     StringValue(dataMode),
                                     "ControlMode",
                                     StringValue(basicMode),
                                     "NonUnicastMode",
                                     StringValue(basicMode),
                                     "RtsCtsThreshold",
                                     UintegerValue(4692480), // never RTS/CTS
                                     "FragmentationThreshold",
                                     UintegerValue(65535)); // never fragment
    }
    else
    {
        const std::string type = a.rateManager == "arf"    ? "ns3::ArfWifiManager"
                                 : a.rateManager == "aarf" ? "ns3::AarfWifiManager"
                                                           : "ns3::MinstrelWifiManager";
        wifi.SetRemoteStationManager(type,
                                     "NonUnicastMode",
                                     StringValue(basicMode),
                                     "RtsCtsThreshold",
                                     UintegerValue(4692480),
                                     "FragmentationThreshold",
                                     UintegerValue(65535));
    }

    WifiMacHelper mac;
    mac.SetType("ns3::AdhocWifiMac",
                "QosSupported",
                BooleanValue(false),
                "FrameRetryLimit",
                UintegerValue(frameRetryLimit));

    auto logDistance = CreateObject<LogDistancePropagationLossModel>();
    logDistance->SetAttribute("Exponent", DoubleValue(a.exponent));
    logDistance->SetAttribute("ReferenceDistance", DoubleValue(1.0));
    logDistance->SetAttribute("ReferenceLoss", DoubleValue(a.referenceLossDb));
    if (a.fading == "rayleigh")
    {
        auto nakagami = CreateObject<NakagamiPropagationLossModel>();
        nakagami->SetAttribute("m0", DoubleValue(1.0));
        nakagami->SetAttribute("m1", DoubleValue(1.0));
        nakagami->SetAttribute("m2", DoubleValue(1.0));
        logDistance->SetNext(nakagami);
    }
    auto channel = CreateObject<YansWifiChannel>();
    channel->SetPropagationLossModel(logDistance);
    channel->SetPropagationDelayModel(CreateObject<ConstantSpeedPropagationDelayModel>());

    ProbedYansWifiPhyHelper phy;
    phy.SetChannel(channel);
    phy.Set("TxPowerStart", DoubleValue(a.txPowerDbm));
    phy.Set("TxPowerEnd", DoubleValue(a.txPowerDbm));
    phy.Set("RxNoiseFigure", DoubleValue(a.noiseFigureDb));
    // the WifiPhyHelper constructor already installs ThresholdPreambleDetectionModel
    // (wifi-helper.cc:165); re-set it only to pass MinimumRssi (default -82 dBm)
    phy.SetPreambleDetectionModel("ns3::ThresholdPreambleDetectionModel",
                                  "MinimumRssi",
                                  DoubleValue(a.preambleMinRssiDbm));
    if (a.errorModel == "nist")
    {
        phy.SetErrorRateModel("ns3::NistErrorRateModel");
    }
    else if (a.errorModel == "yans")
    {
        phy.SetErrorRateModel("ns3::YansErrorRateModel");
    }
    // "table": keep the helper's default
    out.errorRateModelType = phy.ErrorRateModelType();
    out.fallbackType = phy.FallbackType();

    out.devices = wifi.Install(phy, mac, nodes);
    // fixed RNG stream numbers -> results depend only on --seed/--run
    const int64_t used = wifi.AssignStreams(out.devices, 0);
    channel->AssignStreams(used); // Nakagami draws (nothing to assign without fading)

    {
        // mean RX power: a fading-free copy of the log-distance model (CalcRxPower on
        // logDistance itself would also draw from the chained Nakagami model)
        auto plain = CreateObject<LogDistancePropagationLossModel>();
        plain->SetAttribute("Exponent", DoubleValue(a.exponent));
        plain->SetAttribute("ReferenceDistance", DoubleValue(1.0));
        plain->SetAttribute("ReferenceLoss", DoubleValue(a.referenceLossDb));
        out.rxPowerDbm = plain->CalcRxPower(a.txPowerDbm,
                                            nodes.Get(1)->GetObject<MobilityModel>(),
                                            nodes.Get(0)->GetObject<MobilityModel>());
    }

    std::vector<Mac48Address> addrs;
    for (uint32_t i = 0; i < out.devices.GetN(); ++i)
    {
        addrs.push_back(Mac48Address::ConvertFrom(out.devices.Get(i)->GetAddress()));
    }
    const WifiMode basic(basicMode);
    for (uint32_t i = 0; i < out.devices.GetN(); ++i)
    {
        auto dev = DynamicCast<WifiNetDevice>(out.devices.Get(i));
        auto wphy = dev->GetPhy();
        auto wmac = dev->GetMac();
        auto rsm = dev->GetRemoteStationManager();

        // 802.11g in ad hoc mode: short slot, as common.h (pure-ERP cell)
        if (a.standard == "80211g")
        {
            wphy->SetSlot(MicroSeconds(9));
        }

        // pin the basic rate set (ACK rate = --basicRateMbps), see common.h / NOTES.md (a)
        rsm->AddBasicMode(basic);
        for (uint32_t j = 0; j < out.devices.GetN(); ++j)
        {
            if (j == i)
            {
                continue;
            }
            if (a.rateManager == "constant")
            {
                rsm->AddSupportedMode(addrs[j], WifiMode(ModeName(a.standard, a.dataRateMbps)));
            }
            else
            {
                // what AddAllSupportedModes() registers, in the same (PHY) order
                for (const auto& m : wphy->GetModeList())
                {
                    rsm->AddSupportedMode(addrs[j], m);
                }
            }
            rsm->AddSupportedMode(addrs[j], basic);
            rsm->RecordDisassociated(addrs[j]); // no longer "brand new" for AdhocWifiMac
        }

        // traces
        wphy->TraceConnectWithoutContext("PhyTxPsduBegin", MakeCallback(&OnTxBegin));
        wphy->TraceConnectWithoutContext("PhyRxDrop", MakeCallback(&OnPhyRxDrop));
        wphy->GetState()->TraceConnectWithoutContext("RxError",
                                                     MakeBoundCallback(&OnRxErrorAt, i));
        if (i == 0)
        {
            wphy->TraceConnectWithoutContext("MonitorSnifferRx", MakeCallback(&OnSnifferRx));
        }
        rsm->TraceConnectWithoutContext("MacTxDataFailed", MakeCallback(&OnMacTxDataFailed));
        rsm->TraceConnectWithoutContext("MacTxFinalDataFailed",
                                        MakeCallback(&OnMacTxFinalDataFailed));
        wmac->TraceConnectWithoutContext("DroppedMpdu", MakeCallback(&OnMacDrop));
    }
    return out;
}

/// Counts sorted by decreasing count (then name), as a JSON object.
std::string
JsonModes(const std::map<std::string, uint64_t>& m)
{
    std::vector<std::pair<std::string, uint64_t>> v(m.begin(), m.end());
    std::stable_sort(v.begin(), v.end(), [](const auto& x, const auto& y) {
        return x.second > y.second;
    });
    std::ostringstream os;
    os << "{";
    for (size_t i = 0; i < v.size(); ++i)
    {
        os << (i ? ", " : "") << "\"" << v[i].first << "\": " << v[i].second;
    }
    os << "}";
    return os.str();
}

} // namespace

int
main(int argc, char* argv[])
{
    DistanceArgs a;
    CommandLine cmd(__FILE__);
    a.Register(cmd);
    cmd.Parse(argc, argv);
    a.Validate();

    RngSeedManager::SetSeed(a.seed);
    RngSeedManager::SetRun(a.run);
    g_stats.warmup = Seconds(a.warmupS);

    NodeContainer nodes;
    nodes.Create(2); // node 0 receiver, node 1 station

    MobilityHelper mobility;
    auto pos = CreateObject<ListPositionAllocator>();
    pos->Add(Vector(0, 0, 0));
    pos->Add(Vector(a.distanceM, 0, 0));
    mobility.SetPositionAllocator(pos);
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(nodes);

    WifiSetup w = BuildDistanceWifi(nodes, a);
    Ipv4InterfaceContainer ifs = BuildIp(nodes, w.devices);

    const uint16_t port = 9;
    CountingSink sink;
    sink.Install(nodes.Get(0), port);

    auto app = CreateObject<SaturatingSender>();
    app->Setup(InetSocketAddress(ifs.GetAddress(0), port),
               a.payloadBytes,
               w.devices.Get(1),
               false,
               a.queuePackets);
    nodes.Get(1)->AddApplication(app);
    app->SetStartTime(MilliSeconds(1));
    app->SetStopTime(Seconds(a.durationS));

    const double wall = TimedRun(a.durationS);
    const uint64_t events = Simulator::GetEventCount();

    const double window = a.durationS - a.warmupS;
    const double goodput = sink.m_totalBytes * 8.0 / window;

    std::map<std::string, uint64_t> phyDrops;
    for (const auto& [reason, n] : g_stats.phyRxDrops)
    {
        std::ostringstream r;
        r << static_cast<WifiPhyRxfailureReason>(reason);
        phyDrops[r.str()] = n;
    }
    const double pFail = g_stats.dataAttempts ? static_cast<double>(g_stats.dataFailures) /
                                                    g_stats.dataAttempts
                                              : 0.0;
    const double n = static_cast<double>(g_dist.snifferFrames);
    auto meanOrNull = [n](double sum) {
        std::ostringstream os;
        os << std::setprecision(8);
        if (n > 0)
        {
            os << sum / n;
        }
        else
        {
            os << "null";
        }
        return os.str();
    };

    std::ostringstream os;
    os << std::setprecision(10);
    os << "{\"goodput_bps\": " << goodput << ", \"events\": " << events
       << ", \"wall_seconds\": " << wall << ", \"attempts\": " << g_stats.dataAttempts
       << ", \"failures\": " << g_stats.dataFailures << ", \"failure_probability\": " << pFail
       << ", \"retry_drops\": " << g_stats.retryDrops
       << ", \"phy_rx_errors\": " << g_stats.phyRxErrors
       << ", \"phy_rx_errors_ap\": " << g_dist.rxErrorsAp
       << ", \"phy_rx_errors_sta\": " << g_dist.rxErrorsSta
       << ", \"phy_rx_drops\": " << JsonStrMap(phyDrops)
       << ", \"mac_drops\": " << JsonStrMap(g_stats.macDrops)
       << ", \"data_modes\": " << JsonModes(g_dist.dataModes)
       << ", \"ack_modes\": " << JsonModes(g_dist.ackModes)
       << ", \"rx_power_dbm\": " << w.rxPowerDbm
       << ", \"sniffer_data_frames\": " << g_dist.snifferFrames
       << ", \"mean_signal_dbm\": " << meanOrNull(g_dist.sumSignalDbm)
       << ", \"mean_noise_dbm\": " << meanOrNull(g_dist.sumNoiseDbm)
       << ", \"mean_snr_db\": " << meanOrNull(g_dist.sumSnrDb)
       << ", \"measured_s\": " << window << ", \"config\": {\"standard\": \"" << a.standard
       << "\", \"rate_manager\": \"" << a.rateManager
       << "\", \"data_rate_mbps\": " << a.dataRateMbps
       << ", \"basic_rate_mbps\": " << a.basicRateMbps << ", \"error_model\": \"" << a.errorModel
       << "\", \"error_rate_model_type\": \"" << w.errorRateModelType
       << "\", \"error_rate_model_fallback\": \"" << w.fallbackType << "\", \"fading\": \""
       << a.fading << "\", \"distance_m\": " << a.distanceM << ", \"exponent\": " << a.exponent
       << ", \"reference_loss_db\": " << a.referenceLossDb << ", \"reference_distance_m\": 1"
       << ", \"tx_power_dbm\": " << a.txPowerDbm << ", \"noise_figure_db\": " << a.noiseFigureDb
       << ", \"preamble_min_rssi_dbm\": " << a.preambleMinRssiDbm
       << ", \"payload_bytes\": " << a.payloadBytes << ", \"duration_s\": " << a.durationS
       << ", \"warmup_s\": " << a.warmupS << ", \"seed\": " << a.seed << ", \"run\": " << a.run
       << ", \"retry_limit\": " << a.retryLimit << ", \"frame_retry_limit\": " << a.retryLimit + 1
       << ", \"queue_packets\": " << a.queuePackets << "}}";
    std::cout << os.str() << std::endl;

    Simulator::Destroy();
    return 0;
}
