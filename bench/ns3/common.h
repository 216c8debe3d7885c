// Shared helpers for the airtcp ns-3 reference benchmarks (bss_saturation.cc, chain_udp.cc).
//
// Target: ns-3 3.44 as shipped in the PyPI wheel `ns3==3.44.post0` (see build.sh).
//
// Design choices (details and source references in NOTES.md):
//  * Ad hoc MAC (ns3::AdhocWifiMac): no beacons, no association, no management traffic, so the
//    channel carries only DATA and ACK frames of the measured flows.
//  * ns3::ConstantRateWifiManager: DataMode for data, ControlMode for RTS (unused). The rate of
//    ACK frames is NOT ControlMode: it comes from WifiRemoteStationManager::GetControlAnswerMode()
//    and the BSS basic rate set. AdhocWifiMac would add *all mandatory* rates to the basic set on
//    first contact (AddAllSupportedModes), giving e.g. 24 Mbit/s ACKs for 54 Mbit/s 802.11a data.
//    BuildWifi() pre-registers every peer so that this never happens and the basic rate set
//    only contains --basicRateMbps -> every ACK is sent at --basicRateMbps.
//  * ns3::FixedRssLossModel: every frame is received by every node at the same power (default
//    -50 dBm, SNR ~44 dB): no channel errors, no hidden nodes, no capture effect.
//  * Static ARP (NeighborCacheHelper), no traffic-control queue disc, IPv4 only: no ARP, no
//    IPv6 ND/MLD, no extra queueing layer. The only frames are UDP DATA + ACK.
//  * Saturation: SaturatingSender keeps the sender's WifiMacQueue at exactly --queuePackets
//    MPDUs; it refills on every MAC "AckedMpdu"/"DroppedMpdu" event, so the queue is never
//    empty and no CPU is wasted generating packets that are dropped above the MAC.
#pragma once

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/propagation-module.h"
#include "ns3/spectrum-module.h"
#include "ns3/traffic-control-module.h"
#include "ns3/wifi-module.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace airtcp_bench
{
using namespace ns3;

/// Command-line parameters shared by both programs.
struct CommonArgs
{
    std::string standard{"80211a"}; ///< 80211a | 80211b | 80211g
    double dataRateMbps{54};
    double basicRateMbps{6};
    uint32_t payloadBytes{1500}; ///< UDP payload bytes
    double durationS{20};
    double warmupS{2};
    uint32_t seed{1}; ///< RngSeedManager::SetSeed
    uint32_t run{1};  ///< RngSeedManager::SetRun
    uint32_t retryLimit{6}; ///< max RETRANSMISSIONS; attempts = retryLimit + 1
    uint32_t queuePackets{100};  ///< WifiMacQueue::MaxSize (and saturating backlog)
    bool qos{false};             ///< false: DCF (Txop), true: EDCA AC_BE (QosTxop)
    bool shortPreamble{false};   ///< 802.11b short PLCP preamble
    bool erpMixed{false};        ///< 802.11g: long slot (20 us) and CWmin 31
    double rssDbm{-50};          ///< FixedRssLossModel receive power
    bool preambleDetection{true}; ///< keep ns-3's default ThresholdPreambleDetectionModel
    bool frameCapture{false};     ///< install SimpleFrameCaptureModel (ns-3 default: none)
    std::string phyModel{"yans"}; ///< yans | spectrum

    void Register(CommandLine& cmd)
    {
        cmd.AddValue("standard", "80211a | 80211b | 80211g", standard);
        cmd.AddValue("dataRateMbps", "PHY rate of DATA frames (Mbit/s)", dataRateMbps);
        cmd.AddValue("basicRateMbps", "basic rate = rate of ACK frames (Mbit/s)", basicRateMbps);
        cmd.AddValue("payloadBytes", "UDP payload size (bytes)", payloadBytes);
        cmd.AddValue("durationS", "simulated time (s)", durationS);
        cmd.AddValue("warmupS", "goodput/attempt counting starts at this time (s)", warmupS);
        cmd.AddValue("seed", "RngSeedManager seed", seed);
        cmd.AddValue("run", "RngSeedManager run number", run);
        cmd.AddValue("retryLimit",
                     "max retransmissions (attempts = retryLimit+1 = WifiMac::FrameRetryLimit)",
                     retryLimit);
        cmd.AddValue("queuePackets", "WifiMacQueue size (packets)", queuePackets);
        cmd.AddValue("qos", "0: non-QoS DCF, 1: QoS EDCA AC_BE", qos);
        cmd.AddValue("shortPreamble", "802.11b short PLCP preamble (0/1)", shortPreamble);
        cmd.AddValue("erpMixed", "802.11g with long slot 20us and CWmin 31 (0/1)", erpMixed);
        cmd.AddValue("rssDbm", "FixedRssLossModel received power (dBm)", rssDbm);
        cmd.AddValue("preambleDetection",
                     "1: ns-3 default ThresholdPreambleDetectionModel, 0: disabled",
                     preambleDetection);
        cmd.AddValue("frameCapture", "1: install SimpleFrameCaptureModel", frameCapture);
        cmd.AddValue("phyModel", "yans | spectrum", phyModel);
    }

    void Validate() const
    {
        NS_ABORT_MSG_IF(standard != "80211a" && standard != "80211b" && standard != "80211g",
                        "--standard must be 80211a, 80211b or 80211g");
        NS_ABORT_MSG_IF(warmupS >= durationS, "--warmupS must be < --durationS");
        NS_ABORT_MSG_IF(queuePackets < 1, "--queuePackets must be >= 1");
        NS_ABORT_MSG_IF(payloadBytes < 1 || payloadBytes > 2200, "--payloadBytes out of range");
        NS_ABORT_MSG_IF(phyModel != "yans" && phyModel != "spectrum",
                        "--phyModel must be yans or spectrum");
        // SpectrumWifiPhy in 3.44 asserts on the 22 MHz DSSS channel
        // (spectrum-wifi-phy.cc:757, "(frequencies.second - frequencies.first) == ...").
        NS_ABORT_MSG_IF(phyModel == "spectrum" && standard == "80211b",
                        "--phyModel=spectrum is not supported with 80211b in ns-3 3.44");
    }
};

/// Optional radio channel for BuildWifi() (bss_tcp's --distanceM): instead of
/// FixedRssLossModel, LogDistancePropagationLossModel (ReferenceDistance 1 m) optionally followed
/// by Rayleigh fading (NakagamiPropagationLossModel, m = 1), YansWifiPhy TxPowerStart/End and
/// RxNoiseFigure, and an explicit error-rate model, as distance_udp.cc (NOTES.md "Distance").
/// The defaults are ns-3's (propagation-loss-model.cc:476-491, YansWifiPhy) and those of
/// airtcp's [channel] model = "radio". distanceM = 0 (the default) keeps FixedRssLossModel and
/// the helper's default error model, i.e. the programs' behaviour before this option.
struct RadioArgs
{
    double distanceM{0}; ///< station-AP distance (m); 0 = no radio channel (FixedRssLossModel)
    double exponent{3};
    double referenceLossDb{46.6777};
    double txPowerDbm{16.0206};
    double noiseFigureDb{7};
    std::string errorModel{"nist"}; ///< nist | yans
    std::string fading{"none"};     ///< none | rayleigh

    void Register(CommandLine& cmd)
    {
        cmd.AddValue("distanceM",
                     "station-AP distance (m) over a log-distance radio channel; 0 = "
                     "FixedRssLossModel at --rssDbm (default)",
                     distanceM);
        cmd.AddValue("exponent", "LogDistancePropagationLossModel::Exponent", exponent);
        cmd.AddValue("referenceLossDb", "log-distance loss at 1 m (dB)", referenceLossDb);
        cmd.AddValue("txPowerDbm", "WifiPhy TxPowerStart = TxPowerEnd (dBm)", txPowerDbm);
        cmd.AddValue("noiseFigureDb", "WifiPhy::RxNoiseFigure (dB)", noiseFigureDb);
        cmd.AddValue("errorModel", "with --distanceM: nist | yans", errorModel);
        cmd.AddValue("fading", "with --distanceM: none | rayleigh", fading);
    }

    void Validate() const
    {
        NS_ABORT_MSG_IF(distanceM < 0, "--distanceM must be >= 0");
        NS_ABORT_MSG_IF(errorModel != "nist" && errorModel != "yans",
                        "--errorModel must be nist or yans");
        NS_ABORT_MSG_IF(fading != "none" && fading != "rayleigh",
                        "--fading must be none or rayleigh");
    }

    bool Enabled() const
    {
        return distanceM > 0;
    }
};

/// Format a rate as used in ns-3 mode names: 5.5 -> "5_5", 54 -> "54".
inline std::string
RateToken(double mbps)
{
    if (std::fabs(mbps - 5.5) < 1e-9)
    {
        return "5_5";
    }
    NS_ABORT_MSG_IF(std::fabs(mbps - std::round(mbps)) > 1e-9, "unsupported rate " << mbps);
    return std::to_string(static_cast<int>(std::lround(mbps)));
}

/// ns-3 WifiMode unique name for a rate in a given standard (see OfdmPhy / ErpOfdmPhy / DsssPhy).
inline std::string
ModeName(const std::string& standard, double mbps)
{
    static const std::vector<double> ofdm{6, 9, 12, 18, 24, 36, 48, 54};
    static const std::vector<double> dsss{1, 2, 5.5, 11};
    auto in = [mbps](const std::vector<double>& v) {
        for (double r : v)
        {
            if (std::fabs(r - mbps) < 1e-9)
            {
                return true;
            }
        }
        return false;
    };
    if (standard == "80211a" && in(ofdm))
    {
        return "OfdmRate" + RateToken(mbps) + "Mbps";
    }
    if (standard == "80211g" && in(ofdm))
    {
        return "ErpOfdmRate" + RateToken(mbps) + "Mbps";
    }
    if ((standard == "80211b" || standard == "80211g") && in(dsss))
    {
        return "DsssRate" + RateToken(mbps) + "Mbps";
    }
    NS_ABORT_MSG("rate " << mbps << " Mbit/s is not valid for " << standard);
    return "";
}

/// Global counters filled by trace sinks (single-threaded simulator: plain globals are fine).
struct Stats
{
    Time warmup;
    uint64_t dataAttempts{0};      ///< PhyTxPsduBegin of DATA frames (after warmup)
    uint64_t dataFailures{0};      ///< WifiRemoteStationManager::MacTxDataFailed (after warmup)
    uint64_t retryDrops{0};        ///< MacTxFinalDataFailed (after warmup)
    /// frames by (kind, WifiMode uid) -> (name, count), whole run. kind: 0 DATA, 1 Ack, 2 BlockAck
    std::map<std::pair<int, uint32_t>, std::pair<std::string, uint64_t>> frameModes;
    std::map<std::string, uint64_t> macDrops;      ///< WifiMac::DroppedMpdu by reason (whole run)
    std::map<int, uint64_t> phyRxDrops; ///< WifiPhy::PhyRxDrop by reason (after warmup)
    uint64_t phyRxErrors{0}; ///< WifiPhyStateHelper::RxError (after warmup) -> these cause EIFS
    uint64_t tcDrops{0}; ///< TrafficControlLayer::TcDrop: device queue full (whole run)
    double dataPpduUs{-1};   ///< duration of one DATA PPDU
    double ackPpduUs{-1};    ///< duration of one ACK PPDU
};

inline Stats g_stats;

inline bool
InWindow()
{
    return Simulator::Now() >= g_stats.warmup;
}

inline void
OnPsduTxBegin(Ptr<WifiPhy> phy, WifiConstPsduMap psduMap, WifiTxVector txVector, double /*w*/)
{
    for (const auto& [staId, psdu] : psduMap)
    {
        const WifiMacHeader& hdr = psdu->GetHeader(0);
        const int kind = hdr.IsData() ? 0 : hdr.IsAck() ? 1 : hdr.IsBlockAck() ? 2 : -1;
        if (kind < 0)
        {
            continue;
        }
        auto [it, inserted] =
            g_stats.frameModes.try_emplace({kind, txVector.GetMode().GetUid()}, "", 0);
        if (inserted)
        {
            static const char* prefix[] = {"", "Ack@", "BlockAck@"};
            it->second.first = prefix[kind] + txVector.GetMode().GetUniqueName();
            const double us =
                WifiPhy::CalculateTxDuration(psdu, txVector, phy->GetPhyBand()).GetMicroSeconds();
            (kind == 0 ? g_stats.dataPpduUs : g_stats.ackPpduUs) = us;
        }
        it->second.second++;
        if (kind == 0 && InWindow())
        {
            g_stats.dataAttempts++;
        }
    }
}

inline void
OnMacTxDataFailed(Mac48Address)
{
    if (InWindow())
    {
        g_stats.dataFailures++;
    }
}

inline void
OnMacTxFinalDataFailed(Mac48Address)
{
    if (InWindow())
    {
        g_stats.retryDrops++;
    }
}

inline void
OnMacDrop(WifiMacDropReason reason, Ptr<const WifiMpdu>)
{
    static const char* names[] = {"FAILED_ENQUEUE",
                                  "EXPIRED_LIFETIME",
                                  "REACHED_RETRY_LIMIT",
                                  "QOS_OLD_PACKET"};
    g_stats.macDrops[reason < 4 ? names[reason] : "OTHER"]++;
}

inline void
OnPhyRxDrop(Ptr<const Packet>, WifiPhyRxfailureReason reason)
{
    if (InWindow())
    {
        g_stats.phyRxDrops[static_cast<int>(reason)]++;
    }
}

inline void
OnTcDrop(Ptr<const Packet>)
{
    g_stats.tcDrops++;
}

inline void
OnPhyRxError(Ptr<const Packet>, double)
{
    if (InWindow())
    {
        g_stats.phyRxErrors++;
    }
}

/**
 * Build the WiFi devices for all nodes (single collision domain, ad hoc MAC).
 * Must be called after RngSeedManager is set.
 */
inline NetDeviceContainer
BuildWifi(const NodeContainer& nodes, const CommonArgs& a, const RadioArgs* radio = nullptr)
{
    NS_ABORT_MSG_IF(radio && radio->Enabled() && a.phyModel != "yans",
                    "--distanceM needs --phyModel=yans");
    // --- retry limit: WifiMac::FrameRetryLimit is the max number of transmission ATTEMPTS
    //     (WifiRemoteStationManager::DoGetMpdusToDropOnTxFailure drops the MPDU when
    //     retryCount == FrameRetryLimit, the retry count being incremented once per failure).
    const uint32_t frameRetryLimit = a.retryLimit + 1;

    // --- WifiMacQueue: size = --queuePackets, lifetime effectively infinite (default 500 ms
    //     would expire MPDUs in heavily contended cells and distort the saturation model).
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
    const std::string dataMode = ModeName(a.standard, a.dataRateMbps);
    const std::string basicMode = ModeName(a.standard, a.basicRateMbps);
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

    WifiMacHelper mac;
    mac.SetType("ns3::AdhocWifiMac",
                "QosSupported",
                BooleanValue(a.qos),
                "FrameRetryLimit",
                UintegerValue(frameRetryLimit));

    Ptr<PropagationLossModel> loss;
    if (radio && radio->Enabled())
    {
        auto logDistance = CreateObject<LogDistancePropagationLossModel>();
        logDistance->SetAttribute("Exponent", DoubleValue(radio->exponent));
        logDistance->SetAttribute("ReferenceDistance", DoubleValue(1.0));
        logDistance->SetAttribute("ReferenceLoss", DoubleValue(radio->referenceLossDb));
        if (radio->fading == "rayleigh")
        {
            auto nakagami = CreateObject<NakagamiPropagationLossModel>();
            nakagami->SetAttribute("m0", DoubleValue(1.0));
            nakagami->SetAttribute("m1", DoubleValue(1.0));
            nakagami->SetAttribute("m2", DoubleValue(1.0));
            logDistance->SetNext(nakagami);
        }
        loss = logDistance;
    }
    else
    {
        auto fixed = CreateObject<FixedRssLossModel>();
        fixed->SetRss(a.rssDbm);
        loss = fixed;
    }
    auto delay = CreateObject<ConstantSpeedPropagationDelayModel>();

    NetDeviceContainer devices;
    if (a.phyModel == "yans")
    {
        auto channel = CreateObject<YansWifiChannel>();
        channel->SetPropagationLossModel(loss);
        channel->SetPropagationDelayModel(delay);
        YansWifiPhyHelper phy; // default: InterferenceHelper, TableBasedErrorRateModel
        phy.SetChannel(channel);
        phy.Set("ShortPlcpPreambleSupported", BooleanValue(a.shortPreamble));
        if (!a.preambleDetection)
        {
            phy.DisablePreambleDetectionModel();
        }
        if (a.frameCapture)
        {
            phy.SetFrameCaptureModel("ns3::SimpleFrameCaptureModel");
        }
        if (radio && radio->Enabled())
        {
            phy.Set("TxPowerStart", DoubleValue(radio->txPowerDbm));
            phy.Set("TxPowerEnd", DoubleValue(radio->txPowerDbm));
            phy.Set("RxNoiseFigure", DoubleValue(radio->noiseFigureDb));
            phy.SetErrorRateModel(radio->errorModel == "nist" ? "ns3::NistErrorRateModel"
                                                              : "ns3::YansErrorRateModel");
        }
        devices = wifi.Install(phy, mac, nodes);
        if (radio && radio->Enabled())
        {
            // WifiHelper::AssignStreams does not reach the channel's Nakagami draws
            channel->AssignStreams(1000);
        }
    }
    else
    {
        auto channel = CreateObject<MultiModelSpectrumChannel>();
        channel->AddPropagationLossModel(loss);
        channel->SetPropagationDelayModel(delay);
        SpectrumWifiPhyHelper phy;
        phy.SetChannel(channel);
        phy.Set("ShortPlcpPreambleSupported", BooleanValue(a.shortPreamble));
        if (!a.preambleDetection)
        {
            phy.DisablePreambleDetectionModel();
        }
        if (a.frameCapture)
        {
            phy.SetFrameCaptureModel("ns3::SimpleFrameCaptureModel");
        }
        devices = wifi.Install(phy, mac, nodes);
    }
    // fixed RNG stream numbers -> results depend only on --seed/--run
    wifi.AssignStreams(devices, 0);

    const WifiMode data(dataMode);
    const WifiMode basic(basicMode);
    std::vector<Mac48Address> addrs;
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        addrs.push_back(Mac48Address::ConvertFrom(devices.Get(i)->GetAddress()));
    }

    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        auto dev = DynamicCast<WifiNetDevice>(devices.Get(i));
        auto phy = dev->GetPhy();
        auto wmac = dev->GetMac();
        auto rsm = dev->GetRemoteStationManager();

        // --- slot time. WifiPhy::Configure80211g() keeps the long (20 us) slot; only an AP
        //     (ApWifiMac) or a STA associated to it switches to 9 us. In ad hoc mode we set it
        //     explicitly: 9 us for a pure-ERP cell, 20 us (and CWmin 31) for --erpMixed.
        if (a.standard == "80211g")
        {
            if (a.erpMixed)
            {
                phy->SetSlot(MicroSeconds(20));
                if (auto txop = wmac->GetTxop())
                {
                    txop->SetMinCw(31, 0);
                }
                if (a.qos)
                {
                    wmac->GetQosTxop(AC_BE)->SetMinCw(31, 0);
                }
            }
            else
            {
                phy->SetSlot(MicroSeconds(9));
            }
        }

        // --- short PLCP preamble for HR/DSSS (needs PHY support + station manager flag; in
        //     infrastructure mode the flag would come from the AP's capabilities).
        rsm->SetShortPreambleEnabled(a.shortPreamble);

        // --- pin the basic rate set (ACK rate = --basicRateMbps), see header comment.
        rsm->AddBasicMode(basic);
        for (uint32_t j = 0; j < devices.GetN(); ++j)
        {
            if (j == i)
            {
                continue;
            }
            rsm->AddSupportedMode(addrs[j], data);
            rsm->AddSupportedMode(addrs[j], basic);
            rsm->RecordDisassociated(addrs[j]); // no longer "brand new" for AdhocWifiMac
        }

        // --- traces
        phy->TraceConnectWithoutContext("PhyTxPsduBegin", MakeBoundCallback(&OnPsduTxBegin, phy));
        phy->TraceConnectWithoutContext("PhyRxDrop", MakeCallback(&OnPhyRxDrop));
        phy->GetState()->TraceConnectWithoutContext("RxError", MakeCallback(&OnPhyRxError));
        rsm->TraceConnectWithoutContext("MacTxDataFailed", MakeCallback(&OnMacTxDataFailed));
        rsm->TraceConnectWithoutContext("MacTxFinalDataFailed",
                                        MakeCallback(&OnMacTxFinalDataFailed));
        wmac->TraceConnectWithoutContext("DroppedMpdu", MakeCallback(&OnMacDrop));
    }
    return devices;
}

/// Internet stack without IPv6, addresses 10.0.0.0/24 (10.0.0.0/16 beyond 254 nodes: the
/// same addresses up to there), static ARP, no queue disc.
inline Ipv4InterfaceContainer
BuildIp(const NodeContainer& nodes, const NetDeviceContainer& devices)
{
    InternetStackHelper stack;
    stack.SetIpv6StackInstall(false);
    stack.Install(nodes);
    Ipv4AddressHelper addr("10.0.0.0", nodes.GetN() <= 254 ? "255.255.255.0" : "255.255.0.0");
    Ipv4InterfaceContainer ifs = addr.Assign(devices);
    // Ipv4AddressHelper::Assign installs the default queue disc (FqCoDel); remove it so that
    // packets go straight from IP to the WifiMacQueue (TrafficControlLayer::Send passes
    // packets directly to the device when no root queue disc is installed).
    TrafficControlHelper tch;
    tch.Uninstall(devices);
    // With no queue disc and a stopped (full) device queue, TrafficControlLayer::Send() drops the
    // packet (relays in chain_udp): count these drops.
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        nodes.Get(i)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
            "TcDrop",
            MakeCallback(&OnTcDrop));
    }
    // Permanent ARP entries for every pair of interfaces: no ARP request/reply frames.
    NeighborCacheHelper nch;
    nch.PopulateNeighborCache();
    return ifs;
}

/// Queue of the MAC entity that carries our UDP data (DCF Txop or EDCA AC_BE).
inline Ptr<WifiMacQueue>
DataQueue(Ptr<NetDevice> nd, bool qos)
{
    auto mac = DynamicCast<WifiNetDevice>(nd)->GetMac();
    return qos ? mac->GetQosTxop(AC_BE)->GetWifiMacQueue() : mac->GetTxop()->GetWifiMacQueue();
}

/**
 * Saturating UDP source: keeps the WifiMacQueue of its device at `backlog` MPDUs.
 * Each Refill() sends UDP datagrams (synchronously enqueued in the WifiMacQueue through
 * UdpSocket -> Ipv4L3Protocol -> WifiNetDevice -> AdhocWifiMac::Enqueue -> Txop::Queue) until the
 * queue holds `backlog` MPDUs. Refill is triggered (via Simulator::ScheduleNow, i.e. after the
 * MAC has dequeued the MPDU) by the MAC traces "AckedMpdu" and "DroppedMpdu".
 */
class SaturatingSender : public Application
{
  public:
    void Setup(Address dest, uint32_t payload, Ptr<NetDevice> dev, bool qos, uint32_t backlog)
    {
        m_dest = dest;
        m_payload = payload;
        m_queue = DataQueue(dev, qos);
        // queue 0 = the only queue (DCF) or AC_BE's queue (QoS: WifiNetDevice selects the
        // NetDeviceQueue by access category, AC_BE = 0)
        m_txq = dev->GetObject<NetDeviceQueueInterface>()->GetTxQueue(0);
        m_backlog = backlog;
        auto mac = DynamicCast<WifiNetDevice>(dev)->GetMac();
        mac->TraceConnectWithoutContext("AckedMpdu", MakeCallback(&SaturatingSender::Trigger, this));
        mac->TraceConnectWithoutContext("DroppedMpdu",
                                        MakeCallback(&SaturatingSender::TriggerDrop, this));
    }

    void Trigger(Ptr<const WifiMpdu>)
    {
        Simulator::ScheduleNow(&SaturatingSender::Refill, this);
    }

    void TriggerDrop(WifiMacDropReason, Ptr<const WifiMpdu> m)
    {
        Trigger(m);
    }

    uint64_t m_sent{0};

  private:
    void StartApplication() override
    {
        m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
        m_socket->Bind();
        m_socket->Connect(m_dest);
        m_running = true;
        Refill();
    }

    void StopApplication() override
    {
        m_running = false;
    }

    void Refill()
    {
        if (!m_running)
        {
            return;
        }
        // NetDeviceQueue::PacketDequeued() wakes the device queue in a ScheduleNow() event that
        // may still be pending: while the queue is stopped, TrafficControlLayer::Send() would
        // drop our datagram, so retry after the pending same-time events.
        if (m_txq->IsStopped())
        {
            if (++m_deferrals <= 8)
            {
                Simulator::ScheduleNow(&SaturatingSender::Refill, this);
            }
            return;
        }
        m_deferrals = 0;
        while (m_queue->GetNPackets() < m_backlog && !m_txq->IsStopped())
        {
            const auto before = m_queue->GetNPackets();
            m_socket->Send(Create<Packet>(m_payload));
            m_sent++;
            if (m_queue->GetNPackets() <= before)
            {
                break; // not enqueued (should not happen); avoid spinning
            }
        }
    }

    Ptr<Socket> m_socket;
    Address m_dest;
    uint32_t m_payload{0};
    Ptr<WifiMacQueue> m_queue;
    Ptr<NetDeviceQueue> m_txq;
    uint32_t m_backlog{1};
    uint32_t m_deferrals{0};
    bool m_running{false};
};

/// UDP sink counting payload bytes per source IPv4 address, after warmup.
class CountingSink
{
  public:
    void Install(Ptr<Node> node, uint16_t port)
    {
        m_socket = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
        m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
        m_socket->SetRecvCallback(MakeCallback(&CountingSink::OnRecv, this));
    }

    std::map<Ipv4Address, uint64_t> m_bytes; ///< after warmup
    uint64_t m_totalBytes{0};                ///< after warmup

  private:
    void OnRecv(Ptr<Socket> s)
    {
        Address from;
        while (auto p = s->RecvFrom(from))
        {
            if (InWindow())
            {
                const auto src = InetSocketAddress::ConvertFrom(from).GetIpv4();
                m_bytes[src] += p->GetSize();
                m_totalBytes += p->GetSize();
            }
        }
    }

    Ptr<Socket> m_socket;
};

/// Wall-clock timed Simulator::Run(); returns seconds.
inline double
TimedRun(double durationS)
{
    Simulator::Stop(Seconds(durationS));
    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    const auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(t1 - t0).count();
}

inline std::string
JsonStrMap(const std::map<std::string, uint64_t>& m)
{
    std::ostringstream os;
    os << "{";
    bool first = true;
    for (const auto& [k, v] : m)
    {
        os << (first ? "" : ", ") << "\"" << k << "\": " << v;
        first = false;
    }
    os << "}";
    return os.str();
}

/// Emit the common part of the JSON result (without the closing brace).
inline std::string
JsonCommon(const CommonArgs& a,
           double goodputBps,
           const std::vector<double>& perFlow,
           const std::string& perFlowKey,
           double wall,
           uint64_t events,
           Ptr<WifiPhy> phy)
{
    std::map<std::string, uint64_t> phyDrops;
    for (const auto& [reason, n] : g_stats.phyRxDrops)
    {
        std::ostringstream r;
        r << static_cast<WifiPhyRxfailureReason>(reason);
        phyDrops[r.str()] = n;
    }
    std::map<std::string, uint64_t> dataModes;
    std::map<std::string, uint64_t> ackModes;
    for (const auto& [key, v] : g_stats.frameModes)
    {
        (key.first == 0 ? dataModes : ackModes)[v.first] = v.second;
    }
    std::ostringstream os;
    os << std::setprecision(10);
    os << "{\"goodput_bps\": " << goodputBps << ", \"" << perFlowKey << "\": [";
    for (size_t i = 0; i < perFlow.size(); ++i)
    {
        os << (i ? ", " : "") << perFlow[i];
    }
    const double p = g_stats.dataAttempts
                         ? static_cast<double>(g_stats.dataFailures) / g_stats.dataAttempts
                         : 0.0;
    os << "], \"events\": " << events << ", \"wall_seconds\": " << wall
       << ", \"attempts\": " << g_stats.dataAttempts
       << ", \"collisions_or_failures\": " << g_stats.dataFailures
       << ", \"collision_probability\": " << p << ", \"retry_drops\": " << g_stats.retryDrops
       << ", \"phy_rx_errors\": " << g_stats.phyRxErrors
       << ", \"phy_rx_drops\": " << JsonStrMap(phyDrops)
       << ", \"mac_drops\": " << JsonStrMap(g_stats.macDrops)
       << ", \"queue_full_drops\": " << g_stats.tcDrops
       << ", \"data_modes\": " << JsonStrMap(dataModes)
       << ", \"ack_modes\": " << JsonStrMap(ackModes)
       << ", \"data_ppdu_us\": " << g_stats.dataPpduUs << ", \"ack_ppdu_us\": " << g_stats.ackPpduUs
       << ", \"slot_us\": " << phy->GetSlot().GetMicroSeconds()
       << ", \"sifs_us\": " << phy->GetSifs().GetMicroSeconds()
       << ", \"measured_s\": " << (a.durationS - a.warmupS) << ", \"config\": {\"standard\": \""
       << a.standard << "\", \"data_rate_mbps\": " << a.dataRateMbps
       << ", \"basic_rate_mbps\": " << a.basicRateMbps << ", \"payload_bytes\": " << a.payloadBytes
       << ", \"duration_s\": " << a.durationS << ", \"warmup_s\": " << a.warmupS
       << ", \"seed\": " << a.seed << ", \"run\": " << a.run << ", \"qos\": " << a.qos
       << ", \"retry_limit\": " << a.retryLimit << ", \"frame_retry_limit\": " << a.retryLimit + 1
       << ", \"queue_packets\": " << a.queuePackets << ", \"short_preamble\": " << a.shortPreamble
       << ", \"erp_mixed\": " << a.erpMixed << ", \"rss_dbm\": " << a.rssDbm
       << ", \"preamble_detection\": " << a.preambleDetection
       << ", \"frame_capture\": " << a.frameCapture << ", \"phy_model\": \"" << a.phyModel
       << "\"}";
    return os.str();
}

} // namespace airtcp_bench
