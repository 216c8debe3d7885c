// ht_upload.cc -- ns-3 3.44 reference for airtcp's 802.11n (HT) model: ONE station uploading to
// an access point (saturating UDP or one bulk TCP flow) over a log-distance channel, with
// ns-3's HT MAC: A-MPDU aggregation and an HT immediate Block Ack agreement set up by ADDBA.
//
// Topology: node 0 = AP (ns3::ApWifiMac, receiver of the data) at the origin, node 1 = the
// station (ns3::StaWifiMac) at (--distanceM, 0, 0), one infrastructure BSS (Ssid "airtcp-ht").
// Unlike the other programs of this directory this is NOT ad hoc: the AP sends beacons (every
// 102.4 ms at the lowest basic rate) and the station associates first (passive scanning). The
// traffic starts when the station's "Assoc" trace fires (flow_start_s in the JSON), because
// StaWifiMac drops every packet handed to it before association (WifiMac::Enqueue ->
// StaWifiMac::CanForwardPacketsTo, sta-wifi-mac.cc:1027-1030).
//
// WiFi: WIFI_STANDARD_80211n; ChannelSettings "{0, --channelWidth, BAND_5GHZ|BAND_2_4GHZ, 0}"
// (channel number 0 = ns-3's default channel for that width and band: 36 / 38 at 5 GHz, 1 / 3
// at 2.4 GHz); HtConfiguration::ShortGuardIntervalSupported = --shortGi. Everything else of the
// MAC is ns-3's default: EDCA AC_BE (TXOP limit 0: one PPDU per channel access), no RTS/CTS,
// BE_MaxAmpduSize 65535 (--maxAmpduBytes), BE_MaxAmsduSize 0 (no A-MSDU), BlockAckThreshold 0.
// With A-MPDU enabled HtFrameExchangeManager::NeedSetupBlockAck (ht-frame-exchange-manager.cc:
// 106-141) asks for a Block Ack agreement (ADDBA request/response, immediate policy, buffer
// size 64 for HT) as soon as the queue holds > 1 packet for the recipient; with
// --maxAmpduBytes=0 no agreement is made and every MPDU gets a Normal Ack.
// --maxAmpduBytes is set on the station's WifiMac; the AP's BE_MaxAmpduSize is
// --apMaxAmpduBytes, which defaults to the same value (-1), so that "A-MPDU off" also stops the
// AP from aggregating TCP ACKs (the station's HT capabilities would still allow the AP 8191-byte
// A-MPDUs: wifi-mac.cc:2225-2230).
//
// Rate control (--rateManager): constant = ns3::ConstantRateWifiManager, DataMode "HtMcs<--mcs>",
// ControlMode the non-HT reference rate of the MCS ("OfdmRate<r>Mbps" at 5 GHz,
// "ErpOfdmRate<r>Mbps" at 2.4 GHz, as examples/wireless/wifi-ht-network.cc); minstrel-ht =
// ns3::MinstrelHtWifiManager; ideal = ns3::IdealWifiManager (the WifiHelper default), both
// with ns-3's default attributes. MCS 8-15 need two spatial streams: --antennas=0 (default)
// means 2 antennas/streams at both ends for a constant MCS >= 8, else 1.
//
// Channel and PHY as distance_udp.cc: YansWifiChannel, LogDistancePropagationLossModel
// (exponent 3, ReferenceLoss at 1 m = 46.6777 dB (ns-3 default) at 5 GHz, 40.046 dB at 2.4 GHz
// as in wifi-ht-network.cc), ConstantSpeedPropagationDelayModel, TxPower 16.0206 dBm, noise
// figure 7 dB, ns-3's default preamble detection. Error rate model: --errorModel=table (the
// YansWifiPhyHelper default, ns3::TableBasedErrorRateModel, which has HT MCS tables) | nist |
// yans. At the default 1 m the SNR is ~63 dB: no channel errors.
//
// IP as the other programs (common.h BuildIp): IPv4 only, static ARP, no queue disc, a
// WifiMacQueue of --queuePackets packets (no lifetime limit unless --queueMaxDelayMs > 0).
// UDP: common.h's SaturatingSender keeps the station's AC_BE queue at --queuePackets MPDUs
// (payload --payloadBytes, default 1472 = 1500-byte IP packets). TCP: tcp_common.h (TcpArgs,
// airtcp/Linux-style TCP defaults as bss_tcp) with MSS --mss default 1448 (1500-byte IP packets
// with the timestamp option) and --cc default cubic.
//
// Output: one JSON line. Counters are after --warmupS unless named *_total. TCP runs add
// "ack_rtt" (SenderProbe below: one RTT sample per ACK that advances SND.UNA, from the first
// send time of the oldest segment it acknowledges, at the simulator's clock; TcpFlowStats'
// rtt_mean_s averages the changes of the socket's "LastRTT", which with timestamps are whole
// milliseconds, 0 ms counted as 1 us) and, with --cc=bbr, "bbr" (TcpBbr's state, its "MinRtt"
// estimate, the socket's "PacingRate": NOTES.md "BBR on an 802.11n upload"; its "probe_rtt_s"
// and "probe_rtt_end_s" are the times TcpBbr entered and left PROBE_RTT, "cwnd_dips_s" the times
// after --warmupS its cwnd fell from above 4 segments to 4 or below, a fall within 1 s of the
// last time it was that low counting as the same dip: NOTES.md "BBR on an 802.11ax upload").
// TCP with --seriesMs=N (0 = off, the default): every N ms of simulated time a sample of the
// sender's cwnd (bytes), pacing rate (bit/s) and, for TcpBbr, its state (0 STARTUP, 1 DRAIN,
// 2 PROBE_BW, 3 PROBE_RTT; -1 before the flow starts), as the JSON key "series" {"t_s",
// "cwnd_bytes", "pacing_rate_bps", "bbr_state"}; only the event count changes (the sampling
// events), and config gains "series_ms".
//
// 802.11ac / 802.11ax single user (--standard=80211ac|80211ax; NOTES.md "802.11ac (VHT) and
// 802.11ax (HE)"): WIFI_STANDARD_80211ac / _80211ax, 5 GHz only, --widthMhz 20|40|80|160
// (ChannelSettings "{0, W, BAND_5GHZ, 0}": channels 36/38/42/50), --nss 1-4 (Antennas and
// MaxSupportedTx/RxSpatialStreams on both nodes), constant DataMode "VhtMcs<--mcs>" (0-9) or
// "HeMcs<--mcs>" (0-11), ControlMode the MCS's non-HT reference rate as for HT. Guard interval:
// --sgi (HtConfiguration::ShortGuardIntervalSupported, VHT) or --giNs (HeConfiguration::
// GuardInterval, HE; ns-3's default is 3200 ns). --maxAmpduBytes unset (-1) leaves ns-3's
// BE_MaxAmpduSize default (65535, also for VHT and HE); up to 1048575 (VHT) / 6500631 (HE).
// VHT combinations that 802.11ac forbids (e.g. MCS 9 at 20 MHz with 1 or 2 streams) are
// refused before the simulation. The same channel, PHY and MAC settings as for HT otherwise;
// the output adds "sta_data_ppdu"/"ap_data_ppdu" (exact mean and most frequent data PPDU) and
// config keys "standard", "nss", "gi_ns", "max_ampdu_bytes_default", "he_gi_from_config".
// With --standard=80211n (the default) the output is the same as before these options.
//
// Example:
//   ./ht_upload --mcs=7 --traffic=udp --durationS=10 --warmupS=2 --seed=1
//   ./ht_upload --mcs=0 --traffic=tcp --cc=cubic --maxAmpduBytes=0
//   ./ht_upload --standard=80211ax --mcs=11 --widthMhz=80 --nss=1 --giNs=800

#include "tcp_common.h"

#include <algorithm>
#include <tuple>

using namespace ns3;
using namespace airtcp_bench;

namespace
{

struct HtArgs
{
    std::string standard{"80211n"};      ///< 80211n (HT) | 80211ac (VHT) | 80211ax (HE), SU only
    std::string traffic{"udp"};          ///< udp | tcp
    std::string rateManager{"constant"}; ///< constant | minstrel-ht | ideal
    uint32_t mcs{7};                     ///< HT 0-15 / VHT 0-9 / HE 0-11 MCS (constant rate)
    uint32_t channelWidth{20};           ///< MHz: 20 | 40
    uint32_t widthMhz{0};                ///< 0 = --channelWidth; else 20|40 (n), 20-160 (ac/ax)
    bool shortGi{false};
    int32_t sgi{-1};            ///< -1 = --shortGi; else 0/1 (HtConfiguration, n and ac)
    uint32_t giNs{0};           ///< HE GI 800|1600|3200 ns; 0 = ns-3 default (3200 ns)
    bool heGiFromConfig{false}; ///< data GI = own HeConfiguration GI (LocalGiConstantRate...)
    std::string band{"5"};      ///< 5 | 2.4 (GHz); ac/ax: 5 only
    uint32_t antennas{0};       ///< 0 = auto (2 for a constant HT MCS >= 8, else 1)
    uint32_t nss{0};            ///< 0 = --antennas; else antennas = max spatial streams (1-4)
    int64_t maxAmpduBytes{-1};   ///< station's BE_MaxAmpduSize (0 = no A-MPDU; -1 = ns-3 default)
    int64_t apMaxAmpduBytes{-1}; ///< AP's BE_MaxAmpduSize (-1 = --maxAmpduBytes)
    uint32_t payloadBytes{1472};    ///< UDP payload
    double distanceM{1};
    double exponent{3};
    double referenceLossDb{-1}; ///< < 0: 46.6777 (5 GHz) / 40.046 (2.4 GHz)
    double txPowerDbm{16.0206};
    double noiseFigureDb{7};
    std::string errorModel{"table"}; ///< table | nist | yans
    double durationS{10};
    double warmupS{2};
    uint32_t seed{1};
    uint32_t run{1};
    uint32_t retryLimit{6}; ///< FrameRetryLimit = retryLimit + 1 = 7 (ns-3 default)
    uint32_t queuePackets{100};
    double queueMaxDelayMs{0}; ///< WifiMacQueue::MaxDelay; 0 = none (1e6 s)
    double seriesMs{0};        ///< TCP: sample cwnd, pacing rate, BBR state every N ms; 0 = off

    void Register(CommandLine& cmd)
    {
        cmd.AddValue("standard",
                     "80211n (HT) | 80211ac (VHT) | 80211ax (HE), single user",
                     standard);
        cmd.AddValue("traffic", "udp (saturating) | tcp (one bulk flow)", traffic);
        cmd.AddValue("rateManager", "constant | minstrel-ht | ideal", rateManager);
        cmd.AddValue("mcs",
                     "MCS for --rateManager=constant: HT 0..15, VHT 0..9, HE 0..11",
                     mcs);
        cmd.AddValue("channelWidth", "channel width (MHz): 20 | 40", channelWidth);
        cmd.AddValue("widthMhz",
                     "channel width (MHz): 20|40 (n), 20|40|80|160 (ac, ax); 0 = --channelWidth",
                     widthMhz);
        cmd.AddValue("shortGi", "short guard interval 400 ns (0/1)", shortGi);
        cmd.AddValue("sgi",
                     "n/ac: HtConfiguration::ShortGuardIntervalSupported (0/1); -1 = --shortGi",
                     sgi);
        cmd.AddValue("giNs",
                     "ax: HeConfiguration::GuardInterval 800|1600|3200 (ns); 0 = ns-3 default",
                     giNs);
        cmd.AddValue("heGiFromConfig",
                     "ax, constant rate: send data with the station's own "
                     "HeConfiguration::GuardInterval (ns3::AirtcpLocalGiConstantRateWifiManager) "
                     "instead of the GI ns-3 derives from the peer's HE capabilities (800 or "
                     "3200 ns only) (0/1)",
                     heGiFromConfig);
        cmd.AddValue("band", "5 | 2.4 (GHz); 80211ac/80211ax: 5 only", band);
        cmd.AddValue("antennas",
                     "antennas = max spatial streams at both ends; 0 = auto (2 for MCS 8-15)",
                     antennas);
        cmd.AddValue("nss",
                     "spatial streams 1..4: Antennas and MaxSupportedTx/RxSpatialStreams at both "
                     "ends; 0 = --antennas",
                     nss);
        cmd.AddValue("maxAmpduBytes",
                     "station's BE_MaxAmpduSize (bytes, <= 65535 (n), 1048575 (ac), 6500631 (ax); "
                     "0 disables A-MPDU; -1 = ns-3's default, 65535)",
                     maxAmpduBytes);
        cmd.AddValue("apMaxAmpduBytes",
                     "AP's BE_MaxAmpduSize (bytes; -1 = same as --maxAmpduBytes)",
                     apMaxAmpduBytes);
        cmd.AddValue("payloadBytes", "UDP payload size (bytes)", payloadBytes);
        cmd.AddValue("distanceM", "station-AP distance (m)", distanceM);
        cmd.AddValue("exponent", "LogDistancePropagationLossModel::Exponent", exponent);
        cmd.AddValue("referenceLossDb",
                     "ReferenceLoss at 1 m (dB); < 0: 46.6777 at 5 GHz, 40.046 at 2.4 GHz",
                     referenceLossDb);
        cmd.AddValue("txPowerDbm", "WifiPhy TxPowerStart = TxPowerEnd (dBm)", txPowerDbm);
        cmd.AddValue("noiseFigureDb", "WifiPhy::RxNoiseFigure (dB)", noiseFigureDb);
        cmd.AddValue("errorModel", "table (YansWifiPhyHelper default) | nist | yans", errorModel);
        cmd.AddValue("durationS", "simulated time (s)", durationS);
        cmd.AddValue("warmupS", "counting starts at this time (s)", warmupS);
        cmd.AddValue("seed", "RngSeedManager seed", seed);
        cmd.AddValue("run", "RngSeedManager run number", run);
        cmd.AddValue("retryLimit",
                     "max retransmissions (attempts = retryLimit+1 = WifiMac::FrameRetryLimit)",
                     retryLimit);
        cmd.AddValue("queuePackets", "WifiMacQueue size (packets)", queuePackets);
        cmd.AddValue("queueMaxDelayMs",
                     "WifiMacQueue::MaxDelay (ms); 0 = no lifetime limit (ns-3 default 500)",
                     queueMaxDelayMs);
        cmd.AddValue("seriesMs",
                     "TCP: every N ms of simulated time, a sample of the sender's cwnd, pacing "
                     "rate and (TcpBbr) state into the JSON key \"series\" (0 = off)",
                     seriesMs);
    }

    void Validate() const
    {
        NS_ABORT_MSG_IF(standard != "80211n" && standard != "80211ac" && standard != "80211ax",
                        "--standard must be 80211n, 80211ac or 80211ax");
        NS_ABORT_MSG_IF(traffic != "udp" && traffic != "tcp", "--traffic must be udp or tcp");
        NS_ABORT_MSG_IF(rateManager != "constant" && rateManager != "minstrel-ht" &&
                            rateManager != "ideal",
                        "--rateManager must be constant, minstrel-ht or ideal");
        NS_ABORT_MSG_IF(mcs > MaxMcs(),
                        "--mcs must be 0.." << MaxMcs() << " for --standard=" << standard);
        NS_ABORT_MSG_IF(channelWidth != 20 && channelWidth != 40, "--channelWidth must be 20|40");
        NS_ABORT_MSG_IF(widthMhz != 0 && widthMhz != 20 && widthMhz != 40 &&
                            (IsHt() || (widthMhz != 80 && widthMhz != 160)),
                        "--widthMhz must be 0 (= --channelWidth), 20, 40, or (80211ac/80211ax "
                        "only) 80 or 160");
        NS_ABORT_MSG_IF(sgi < -1 || sgi > 1, "--sgi must be -1, 0 or 1");
        NS_ABORT_MSG_IF(giNs != 0 && giNs != 800 && giNs != 1600 && giNs != 3200,
                        "--giNs must be 0 (ns-3 default), 800, 1600 or 3200");
        NS_ABORT_MSG_IF(giNs != 0 && standard != "80211ax", "--giNs is for --standard=80211ax");
        NS_ABORT_MSG_IF(heGiFromConfig && (standard != "80211ax" || rateManager != "constant"),
                        "--heGiFromConfig is for --standard=80211ax --rateManager=constant");
        NS_ABORT_MSG_IF(band != "5" && band != "2.4", "--band must be 5 or 2.4");
        NS_ABORT_MSG_IF(!IsHt() && band != "5", "--standard=" << standard << " needs --band=5");
        NS_ABORT_MSG_IF(antennas > 4, "--antennas must be 0..4");
        NS_ABORT_MSG_IF(nss > 4, "--nss must be 0..4");
        NS_ABORT_MSG_IF(rateManager == "constant" && mcs >= 8 && antennas == 1,
                        "MCS 8-15 need --antennas >= 2");
        NS_ABORT_MSG_IF(IsHt() && rateManager == "constant" && mcs >= 8 && nss == 1,
                        "HT MCS 8-15 need --nss >= 2");
        NS_ABORT_MSG_IF(maxAmpduBytes < -1 || maxAmpduBytes > MaxAmpduLimit(),
                        (IsHt() ? std::string("--maxAmpduBytes must be <= 65535 (HT)")
                                : "--maxAmpduBytes must be -1.." +
                                      std::to_string(MaxAmpduLimit())));
        NS_ABORT_MSG_IF(apMaxAmpduBytes < -1 || apMaxAmpduBytes > MaxAmpduLimit(),
                        "--apMaxAmpduBytes must be -1.." << MaxAmpduLimit());
        NS_ABORT_MSG_IF(payloadBytes < 1 || payloadBytes > 2200, "--payloadBytes out of range");
        NS_ABORT_MSG_IF(!(distanceM > 0), "--distanceM must be > 0");
        NS_ABORT_MSG_IF(errorModel != "table" && errorModel != "nist" && errorModel != "yans",
                        "--errorModel must be table, nist or yans");
        NS_ABORT_MSG_IF(warmupS < 0 || warmupS >= durationS, "need 0 <= --warmupS < --durationS");
        NS_ABORT_MSG_IF(queuePackets < 1, "--queuePackets must be >= 1");
        NS_ABORT_MSG_IF(queueMaxDelayMs < 0, "--queueMaxDelayMs must be >= 0");
        NS_ABORT_MSG_IF(seriesMs < 0, "--seriesMs must be >= 0");
        NS_ABORT_MSG_IF(seriesMs > 0 && traffic != "tcp", "--seriesMs is for --traffic=tcp");
    }

    bool IsHt() const
    {
        return standard == "80211n";
    }

    uint32_t MaxMcs() const
    {
        return standard == "80211n" ? 15 : (standard == "80211ac" ? 9 : 11);
    }

    /// The standard's maximum A-MPDU length (the caps in WifiMac's *_MaxAmpduSize doc).
    int64_t MaxAmpduLimit() const
    {
        return standard == "80211n" ? 65535 : (standard == "80211ac" ? 1048575 : 6500631);
    }

    uint32_t Width() const
    {
        return widthMhz ? widthMhz : channelWidth;
    }

    bool ShortGi() const
    {
        return sgi < 0 ? shortGi : sgi == 1;
    }

    uint32_t Antennas() const
    {
        if (nss > 0)
        {
            return nss;
        }
        if (antennas > 0)
        {
            return antennas;
        }
        return (IsHt() && rateManager == "constant" && mcs >= 8) ? 2 : 1;
    }

    /// AP's BE_MaxAmpduSize to set; -1 = leave ns-3's default.
    int64_t ApMaxAmpdu() const
    {
        return apMaxAmpduBytes < 0 ? maxAmpduBytes : apMaxAmpduBytes;
    }

    double ReferenceLoss() const
    {
        if (referenceLossDb >= 0)
        {
            return referenceLossDb;
        }
        return band == "5" ? 46.6777 : 40.046;
    }
};

/// ConstantRateWifiManager whose data TXVECTOR takes the guard interval from this device's own
/// HeConfiguration (--heGiFromConfig=1). ns-3's ConstantRateWifiManager::DoGetDataTxVector
/// (constant-rate-wifi-manager.cc:116-136) uses GetGuardInterval(station), which
/// AddStationHeCapabilities sets to 800 ns if the peer's HE capabilities announce
/// "HE SU PPDU with 1x HE-LTF and 0.8 us GI", else to 3200 ns (wifi-remote-station-manager.cc:
/// 1642-1650); WifiMac::GetHeCapabilities announces it only for a GI of 800 ns (wifi-mac.cc:
/// 2367-2373). A 1600-ns configuration is therefore sent with 3200 ns. This class is the same
/// code as ns-3's, with the GI of GetGuardIntervalForMode(mode, device) (the GI used for
/// management frames).
class LocalGiConstantRateWifiManager : public ConstantRateWifiManager
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::AirtcpLocalGiConstantRateWifiManager")
                                .SetParent<ConstantRateWifiManager>()
                                .SetGroupName("Wifi")
                                .AddConstructor<LocalGiConstantRateWifiManager>();
        return tid;
    }

  private:
    WifiTxVector DoGetDataTxVector(WifiRemoteStation* st, MHz_u allowedWidth) override
    {
        WifiModeValue mode;
        GetAttribute("DataMode", mode);
        const WifiMode dataMode = mode.Get();
        uint8_t nss = std::min(GetMaxNumberOfTransmitStreams(), GetNumberOfSupportedStreams(st));
        if (dataMode.GetModulationClass() == WIFI_MOD_CLASS_HT)
        {
            nss = 1 + (dataMode.GetMcsValue() / 8);
        }
        return WifiTxVector(
            dataMode,
            GetDefaultTxPowerLevel(),
            GetPreambleForTransmission(dataMode.GetModulationClass(), GetShortPreambleEnabled()),
            GetGuardIntervalForMode(dataMode, GetPhy()->GetDevice()),
            GetNumberOfAntennas(),
            nss,
            0,
            GetPhy()->GetTxBandwidth(dataMode, std::min(allowedWidth, GetChannelWidth(st))),
            GetAggregation(st));
    }
};

NS_OBJECT_ENSURE_REGISTERED(LocalGiConstantRateWifiManager);

/// What one node put on the air (PhyTxPsduBegin), after warmup.
struct NodeTx
{
    uint64_t dataPpdus{0};    ///< PPDUs whose PSDU carries data MPDUs
    uint64_t dataMpdus{0};    ///< data MPDUs in them (retransmissions included)
    uint64_t ampdus{0};       ///< of which A-MPDUs with > 1 MPDU
    uint64_t retryMpdus{0};   ///< data MPDUs with the Retry bit set (retransmissions)
    uint64_t dataPsduBytes{0};
    double dataAirtimeS{0};   ///< sum of the data PPDU durations
    double maxDataPpduUs{0};
    uint64_t dataAirtimeNs{0}; ///< sum of the data PPDU durations, exact (ns)
    /// (MPDUs, PSDU bytes, PPDU duration ns) of a data PPDU -> count
    std::map<std::tuple<uint64_t, uint64_t, int64_t>, uint64_t> shapes;
    std::map<uint64_t, uint64_t> hist; ///< MPDUs per data PPDU -> count
    std::map<std::string, uint64_t> dataModes; ///< "HtMcs7/20MHz/800ns/1ss" -> data PPDUs
    std::map<std::string, uint64_t> frames;    ///< "<type>@<mode>" -> PPDUs (all frames)
    uint64_t acked{0};        ///< WifiMac AckedMpdu
    uint64_t nacked{0};       ///< WifiMac NAckedMpdu (negative in a BlockAck)
    uint64_t mpduTimeouts{0}; ///< MpduResponseTimeout (missing Normal Ack)
    uint64_t psduTimeouts{0}; ///< PsduResponseTimeout (missing BlockAck)
    std::map<std::string, uint64_t> drops;      ///< DroppedMpdu by reason
    std::map<std::string, uint64_t> dropsTotal; ///< DroppedMpdu by reason, whole run
    uint64_t macTxDropsTotal{0}; ///< MacTxDrop (refused before the queue), whole run
    uint64_t rxErrors{0};        ///< WifiPhyStateHelper RxError at this node
    /// originator Block Ack agreement state changes (whole run): (time s, tid, state)
    std::vector<std::tuple<double, uint32_t, std::string>> baStates;
};

NodeTx g_tx[2]; // 0 = AP, 1 = STA

/// What TcpFlowStats (tcp_common.h) does not give: per-ACK RTT samples at the simulator's clock
/// and, for TcpBbr, its pacing rate, min-RTT estimate and state. Trace sinks only: nothing is
/// scheduled but the hook, so the simulation (and its event count) is unchanged.
class SenderProbe
{
  public:
    void Attach(Ptr<BulkSendApplication> bulk, Time start)
    {
        m_bulk = bulk;
        // After TcpFlowStats::HookSocket (scheduled first for the same time).
        Simulator::Schedule(start + NanoSeconds(1), &SenderProbe::HookSocket, this);
    }

    void Finish()
    {
        AccumulatePacing();
    }

    /// {"samples", "mean_s", "p50_s", "min_s", "max_s"} after the warm-up.
    std::string JsonAckRtt() const
    {
        std::vector<double> v = m_rtts;
        std::sort(v.begin(), v.end());
        double sum = 0;
        for (double x : v)
        {
            sum += x;
        }
        std::ostringstream os;
        os << std::setprecision(10) << "{\"samples\": " << v.size()
           << ", \"mean_s\": " << (v.empty() ? 0.0 : sum / v.size())
           << ", \"p50_s\": " << (v.empty() ? 0.0 : v[v.size() / 2])
           << ", \"min_s\": " << (v.empty() ? 0.0 : v.front())
           << ", \"max_s\": " << (v.empty() ? 0.0 : v.back()) << "}";
        return os.str();
    }

    bool IsBbr() const
    {
        return m_bbr != nullptr;
    }

    std::string JsonBbr() const
    {
        static const char* names[] = {"STARTUP", "DRAIN", "PROBE_BW", "PROBE_RTT"};
        const uint32_t state = m_bbr->GetBbrState();
        const double window = (Simulator::Now() - g_stats.warmup).GetSeconds();
        std::ostringstream os;
        os << std::setprecision(10) << "{\"state\": \"" << (state < 4 ? names[state] : "OTHER")
           << "\", \"min_rtt_s\": " << m_minRtt.GetSeconds()
           << ", \"min_rtt_changes\": " << m_minRttChanges << ", \"min_rtt_1us_at_s\": ";
        if (m_minRtt1usAt.IsNegative())
        {
            os << "null";
        }
        else
        {
            os << m_minRtt1usAt.GetSeconds();
        }
        os << ", \"pacing_rate_bps\": " << m_pacingBps
           << ", \"pacing_rate_mean_bps\": " << (window > 0 ? m_pacingArea / window : 0.0)
           << ", \"cwnd_gain\": " << m_bbr->GetCwndGain()
           << ", \"pacing_gain\": " << m_bbr->GetPacingGain()
           << ", \"probe_rtt_entries\": " << m_probeRttEntries
           << ", \"probe_rtt_entries_total\": " << m_probeRttEntriesTotal
           << ", \"probe_rtt_s\": " << JsonArray(m_probeRttS)
           << ", \"probe_rtt_end_s\": " << JsonArray(m_probeRttEndS)
           << ", \"cwnd_dips_s\": " << JsonArray(m_dips) << "}";
        return os.str();
    }

    /// --seriesMs: one sample every `interval` from `interval` on, up to `end` (exclusive).
    void EnableSeries(Time interval, Time end)
    {
        m_seriesInterval = interval;
        m_seriesEnd = end;
        Simulator::Schedule(interval, &SenderProbe::Sample, this);
    }

    /// {"t_s", "cwnd_bytes", "pacing_rate_bps"[, "bbr_state"]}
    std::string JsonSeries() const
    {
        std::ostringstream os;
        os << "{\"t_s\": " << JsonArray(m_sT) << ", \"cwnd_bytes\": " << JsonArray(m_sCwnd)
           << ", \"pacing_rate_bps\": " << JsonArray(m_sPacing);
        if (m_bbr)
        {
            os << ", \"bbr_state\": " << JsonArray(m_sState);
        }
        os << "}";
        return os.str();
    }

  private:
    struct Sent
    {
        uint32_t end;
        Time sent;
        bool retransmitted;
    };

    void HookSocket()
    {
        auto s = DynamicCast<TcpSocketBase>(m_bulk->GetSocket());
        NS_ABORT_MSG_IF(!s, "BulkSendApplication has no TcpSocketBase");
        s->TraceConnectWithoutContext("Tx", MakeCallback(&SenderProbe::OnTx, this));
        s->TraceConnectWithoutContext("Rx", MakeCallback(&SenderProbe::OnRx, this));
        s->TraceConnectWithoutContext("CongestionWindow",
                                      MakeCallback(&SenderProbe::OnCwnd, this));
        UintegerValue mss;
        s->GetAttribute("SegmentSize", mss);
        m_mss = static_cast<uint32_t>(mss.Get());
        PointerValue cc;
        s->GetAttribute("CongestionOps", cc);
        m_bbr = DynamicCast<TcpBbr>(cc.Get<TcpCongestionOps>());
        if (m_bbr)
        {
            s->TraceConnectWithoutContext("PacingRate",
                                          MakeCallback(&SenderProbe::OnPacingRate, this));
            m_bbr->TraceConnectWithoutContext("MinRtt", MakeCallback(&SenderProbe::OnMinRtt, this));
            m_bbrState = m_bbr->GetBbrState();
            m_pacingSince = Simulator::Now();
        }
    }

    /// Entries into PROBE_RTT, seen at the socket's next send or receipt.
    void CheckBbrState()
    {
        if (!m_bbr)
        {
            return;
        }
        const uint32_t state = m_bbr->GetBbrState();
        if (state != m_bbrState && state == TcpBbr::BBR_PROBE_RTT)
        {
            m_probeRttEntriesTotal++;
            m_probeRttS.push_back(Simulator::Now().GetSeconds());
            if (InWindow())
            {
                m_probeRttEntries++;
            }
        }
        if (state != m_bbrState && m_bbrState == TcpBbr::BBR_PROBE_RTT)
        {
            m_probeRttEndS.push_back(Simulator::Now().GetSeconds());
        }
        m_bbrState = state;
    }

    /// BBR's ProbeRTT holds cwnd at 4 segments (TcpBbr m_minPipeCwnd): a dip is cwnd falling
    /// from above that to it or below after the warm-up. In ProbeRTT TcpBbr raises cwnd on each
    /// ACK (SetCwnd) and caps it again (ModulateCwndForProbeRTT), so a fall within 1 s of the
    /// last time cwnd was that low is the same dip (wired_tcp.cc's rule).
    void OnCwnd(uint32_t oldCwnd, uint32_t cwnd)
    {
        m_cwnd = cwnd;
        CheckBbrState();
        if (!m_bbr || !InWindow())
        {
            return;
        }
        const uint32_t dip = 4 * m_mss;
        const Time now = Simulator::Now();
        if (oldCwnd > dip && cwnd <= dip && (!m_wasLow || now - m_lastLow > Seconds(1)))
        {
            m_dips.push_back(now.GetSeconds());
        }
        if (oldCwnd <= dip || cwnd <= dip)
        {
            m_wasLow = true;
            m_lastLow = now;
        }
    }

    void Sample()
    {
        const Time now = Simulator::Now();
        if (now >= m_seriesEnd)
        {
            return;
        }
        CheckBbrState();
        m_sT.push_back(now.GetSeconds());
        m_sCwnd.push_back(m_cwnd);
        m_sPacing.push_back(m_pacingBps);
        // -1 before the socket is hooked (the flow starts after association)
        m_sState.push_back(m_bbr ? static_cast<int>(m_bbr->GetBbrState()) : -1);
        Simulator::Schedule(m_seriesInterval, &SenderProbe::Sample, this);
    }

    template <typename T>
    static std::string JsonArray(const std::vector<T>& v)
    {
        std::ostringstream os;
        os << std::setprecision(10) << "[";
        for (size_t i = 0; i < v.size(); ++i)
        {
            os << (i ? ", " : "") << v[i];
        }
        os << "]";
        return os.str();
    }

    /// Data segments by first sequence number; a send below the highest sent is a
    /// retransmission and marks every segment it overlaps (Karn: no sample from those).
    void OnTx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
    {
        CheckBbrState();
        const uint32_t len = p->GetSize();
        if (len == 0)
        {
            return;
        }
        const uint32_t seq = h.GetSequenceNumber().GetValue();
        const uint32_t end = seq + len; // a 10-s run stays far below 2^32 bytes
        if (seq < m_highTx)
        {
            auto it = m_sent.upper_bound(seq);
            if (it != m_sent.begin())
            {
                --it;
            }
            for (; it != m_sent.end() && it->first < end; ++it)
            {
                if (it->second.end > seq)
                {
                    it->second.retransmitted = true;
                }
            }
            return;
        }
        m_sent.emplace(seq, Sent{end, Simulator::Now(), false});
        m_highTx = end;
    }

    /// An ACK that advances SND.UNA gives one sample: now - the first send time of the oldest
    /// segment it acknowledges (the segment whose timestamp an RFC 7323 receiver echoes).
    void OnRx(Ptr<const Packet>, const TcpHeader& h, Ptr<const TcpSocketBase>)
    {
        CheckBbrState();
        if (!(h.GetFlags() & TcpHeader::ACK))
        {
            return;
        }
        const uint32_t ack = h.GetAckNumber().GetValue();
        if (ack <= m_una)
        {
            return;
        }
        m_una = ack;
        auto it = m_sent.begin();
        if (it == m_sent.end() || it->first >= ack)
        {
            return;
        }
        if (!it->second.retransmitted && InWindow())
        {
            m_rtts.push_back((Simulator::Now() - it->second.sent).GetSeconds());
        }
        while (it != m_sent.end() && it->second.end <= ack)
        {
            it = m_sent.erase(it);
        }
    }

    void AccumulatePacing()
    {
        const Time now = Simulator::Now();
        const Time from = std::max(m_pacingSince, g_stats.warmup);
        if (now > from)
        {
            m_pacingArea += (now - from).GetSeconds() * m_pacingBps;
        }
        m_pacingSince = now;
    }

    void OnPacingRate(DataRate, DataRate rate)
    {
        AccumulatePacing();
        m_pacingBps = static_cast<double>(rate.GetBitRate());
    }

    void OnMinRtt(Time, Time rtt)
    {
        m_minRtt = rtt;
        m_minRttChanges++;
        if (rtt <= MicroSeconds(1) && m_minRtt1usAt.IsNegative())
        {
            m_minRtt1usAt = Simulator::Now();
        }
    }

    Ptr<BulkSendApplication> m_bulk;
    Ptr<TcpBbr> m_bbr;
    std::map<uint32_t, Sent> m_sent;
    uint32_t m_highTx{0};
    uint32_t m_una{0};
    std::vector<double> m_rtts;
    uint32_t m_bbrState{0};
    uint64_t m_probeRttEntries{0};
    uint64_t m_probeRttEntriesTotal{0};
    double m_pacingBps{0};
    double m_pacingArea{0};
    Time m_pacingSince;
    Time m_minRtt;
    uint64_t m_minRttChanges{0};
    Time m_minRtt1usAt{Seconds(-1)};
    std::vector<double> m_probeRttS;    ///< PROBE_RTT entries (s), whole run
    std::vector<double> m_probeRttEndS; ///< PROBE_RTT exits (s), whole run
    uint32_t m_mss{0};
    uint32_t m_cwnd{0};
    std::vector<double> m_dips; ///< cwnd dips to <= 4 segments after the warm-up (s)
    bool m_wasLow{false};
    Time m_lastLow;
    Time m_seriesInterval;
    Time m_seriesEnd;
    std::vector<double> m_sT;
    std::vector<uint32_t> m_sCwnd;
    std::vector<double> m_sPacing;
    std::vector<int> m_sState;
};

struct FlowState
{
    HtArgs a;
    TcpArgs t;
    NodeContainer nodes;
    Ipv4InterfaceContainer ifs;
    NetDeviceContainer devices; // 0 = AP, 1 = STA
    TcpFlowStats flow;
    SenderProbe probe;
    Ptr<SaturatingSender> udpApp;
    double assocS{-1};
    double flowStartS{-1};
    uint32_t assocCount{0};
    uint32_t deassocCount{0};
};

FlowState g_fs;
WifiPhyBand g_band{WIFI_PHY_BAND_5GHZ}; ///< for CalculateTxDuration in OnTx

const char* kDropNames[] = {"FAILED_ENQUEUE", "EXPIRED_LIFETIME", "REACHED_RETRY_LIMIT",
                            "QOS_OLD_PACKET"};

void
OnTx(uint32_t node, WifiConstPsduMap psduMap, WifiTxVector txv, double /*w*/)
{
    if (!InWindow())
    {
        return;
    }
    NodeTx& s = g_tx[node];
    for (const auto& [staId, psdu] : psduMap)
    {
        const WifiMacHeader& hdr = psdu->GetHeader(0);
        s.frames[std::string(hdr.GetTypeString()) + "@" + txv.GetMode().GetUniqueName()]++;
        if (!hdr.HasData())
        {
            continue;
        }
        const auto n = psdu->GetNMpdus();
        s.dataPpdus++;
        s.dataMpdus += n;
        s.hist[n]++;
        if (psdu->IsAggregate() && n > 1)
        {
            s.ampdus++;
        }
        for (const auto& mpdu : *psdu)
        {
            if (mpdu->GetHeader().IsRetry())
            {
                s.retryMpdus++;
            }
        }
        s.dataPsduBytes += psdu->GetSize();
        const Time duration = WifiPhy::CalculateTxDuration(psduMap, txv, g_band);
        s.dataAirtimeNs += duration.GetNanoSeconds();
        s.shapes[{n, psdu->GetSize(), duration.GetNanoSeconds()}]++;
        // whole microseconds (truncated), as this program has always reported them
        const double us = duration.GetMicroSeconds();
        s.dataAirtimeS += us * 1e-6;
        s.maxDataPpduUs = std::max(s.maxDataPpduUs, us);
        std::ostringstream key;
        key << txv.GetMode().GetUniqueName() << "/" << txv.GetChannelWidth() << "MHz/"
            << txv.GetGuardInterval().GetNanoSeconds() << "ns/" << +txv.GetNss() << "ss";
        s.dataModes[key.str()]++;
    }
}

void
OnAcked(uint32_t node, Ptr<const WifiMpdu>)
{
    if (InWindow())
    {
        g_tx[node].acked++;
    }
}

void
OnNAcked(uint32_t node, Ptr<const WifiMpdu>)
{
    if (InWindow())
    {
        g_tx[node].nacked++;
    }
}

void
OnDropped(uint32_t node, WifiMacDropReason reason, Ptr<const WifiMpdu>)
{
    const std::string name = reason < 4 ? kDropNames[reason] : "OTHER";
    g_tx[node].dropsTotal[name]++;
    if (InWindow())
    {
        g_tx[node].drops[name]++;
    }
}

void
OnMacTxDrop(uint32_t node, Ptr<const Packet>)
{
    g_tx[node].macTxDropsTotal++;
}

void
OnMpduTimeout(uint32_t node, uint8_t, Ptr<const WifiMpdu>, const WifiTxVector&)
{
    if (InWindow())
    {
        g_tx[node].mpduTimeouts++;
    }
}

void
OnPsduTimeout(uint32_t node, uint8_t, Ptr<const WifiPsdu>, const WifiTxVector&)
{
    if (InWindow())
    {
        g_tx[node].psduTimeouts++;
    }
}

void
OnRxError(uint32_t node, Ptr<const Packet> p, double snr)
{
    OnPhyRxError(p, snr); // common.h g_stats.phyRxErrors (after warmup)
    if (InWindow())
    {
        g_tx[node].rxErrors++;
    }
}

void
OnBaState(uint32_t node,
          Time now,
          Mac48Address,
          uint8_t tid,
          OriginatorBlockAckAgreement::State state)
{
    static const char* names[] = {"PENDING", "ESTABLISHED", "NO_REPLY", "RESET", "REJECTED"};
    g_tx[node].baStates.emplace_back(now.GetSeconds(),
                                     tid,
                                     state <= 4 ? names[state] : "OTHER");
}

/// Start the traffic (called once, right after the station's first association).
void
StartFlow()
{
    auto& fs = g_fs;
    fs.flowStartS = Simulator::Now().GetSeconds();
    const Time stop = Seconds(fs.a.durationS) - Simulator::Now(); // relative to now
    if (fs.a.traffic == "udp")
    {
        fs.udpApp = CreateObject<SaturatingSender>();
        fs.udpApp->Setup(InetSocketAddress(fs.ifs.GetAddress(0), 9),
                         fs.a.payloadBytes,
                         fs.devices.Get(1),
                         true, // QoS: AC_BE queue
                         fs.a.queuePackets);
        fs.nodes.Get(1)->AddApplication(fs.udpApp); // Initialize (and start) now
        fs.udpApp->SetStartTime(Seconds(0));
        fs.udpApp->SetStopTime(stop);
    }
    else
    {
        auto [bulk, sink] = InstallBulkFlow(fs.nodes.Get(1),
                                            fs.nodes.Get(0),
                                            fs.ifs.GetAddress(0),
                                            5001,
                                            fs.t.mss,
                                            Seconds(0),
                                            stop);
        fs.flow.Attach(bulk, sink, fs.t.mss, Seconds(0));
        fs.probe.Attach(bulk, Seconds(0));
    }
}

void
OnAssoc(Mac48Address)
{
    g_fs.assocCount++;
    if (g_fs.assocS < 0)
    {
        g_fs.assocS = Simulator::Now().GetSeconds();
        Simulator::ScheduleNow(&StartFlow);
    }
}

void
OnDeAssoc(Mac48Address)
{
    g_fs.deassocCount++;
}

std::string
JsonHist(const std::map<uint64_t, uint64_t>& m)
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

/// Established originator agreement of `node` towards `peer` for TID 0, as JSON (or null).
std::string
JsonAgreement(uint32_t node, Mac48Address peer)
{
    auto mac = DynamicCast<WifiNetDevice>(g_fs.devices.Get(node))->GetMac();
    auto agr = mac->GetQosTxop(AC_BE)->GetBaManager()->GetAgreementAsOriginator(peer, 0);
    std::ostringstream os;
    os << std::setprecision(10) << "{\"final\": ";
    if (!agr)
    {
        os << "null";
    }
    else
    {
        const auto& g = agr->get();
        os << "{\"established\": " << (g.IsEstablished() ? "true" : "false")
           << ", \"buffer_size\": " << g.GetBufferSize()
           << ", \"immediate\": " << (g.IsImmediateBlockAck() ? "true" : "false")
           << ", \"amsdu_supported\": " << (g.IsAmsduSupported() ? "true" : "false")
           << ", \"ht_supported\": " << (g.IsHtSupported() ? "true" : "false")
           << ", \"timeout\": " << g.GetTimeout() << "}";
    }
    os << ", \"states\": [";
    const auto& st = g_tx[node].baStates;
    for (size_t i = 0; i < st.size(); ++i)
    {
        os << (i ? ", " : "") << "{\"t_s\": " << std::get<0>(st[i])
           << ", \"tid\": " << std::get<1>(st[i]) << ", \"state\": \"" << std::get<2>(st[i])
           << "\"}";
    }
    os << "]}";
    return os.str();
}

std::string
JsonNode(uint32_t node)
{
    const NodeTx& s = g_tx[node];
    std::ostringstream os;
    os << std::setprecision(10);
    os << "{\"data_ppdus\": " << s.dataPpdus << ", \"data_mpdus\": " << s.dataMpdus
       << ", \"mean_mpdus_per_ppdu\": "
       << (s.dataPpdus ? static_cast<double>(s.dataMpdus) / s.dataPpdus : 0.0)
       << ", \"ampdus\": " << s.ampdus << ", \"mpdus_per_ppdu_hist\": " << JsonHist(s.hist)
       << ", \"retransmitted_mpdus\": " << s.retryMpdus
       << ", \"data_psdu_bytes\": " << s.dataPsduBytes
       << ", \"data_airtime_s\": " << s.dataAirtimeS << ", \"mean_data_ppdu_us\": "
       << (s.dataPpdus ? s.dataAirtimeS * 1e6 / s.dataPpdus : 0.0)
       << ", \"max_data_ppdu_us\": " << s.maxDataPpduUs << ", \"acked_mpdus\": " << s.acked
       << ", \"nacked_mpdus\": " << s.nacked << ", \"mpdu_response_timeouts\": " << s.mpduTimeouts
       << ", \"psdu_response_timeouts\": " << s.psduTimeouts
       << ", \"dropped_mpdus\": " << JsonStrMap(s.drops)
       << ", \"dropped_mpdus_total\": " << JsonStrMap(s.dropsTotal)
       << ", \"mac_tx_drops_total\": " << s.macTxDropsTotal
       << ", \"phy_rx_errors\": " << s.rxErrors << ", \"data_modes\": " << JsonStrMap(s.dataModes)
       << ", \"frames\": " << JsonStrMap(s.frames) << "}";
    return os.str();
}

/// VHT/HE only (not printed for 80211n, whose output is unchanged): exact means and the most
/// frequent data PPDU (MPDUs, PSDU bytes, duration) of `node` after the warm-up.
std::string
JsonPpduShape(uint32_t node)
{
    const NodeTx& s = g_tx[node];
    std::ostringstream os;
    os << std::setprecision(10) << "{\"mean_psdu_bytes\": "
       << (s.dataPpdus ? static_cast<double>(s.dataPsduBytes) / s.dataPpdus : 0.0)
       << ", \"mean_ppdu_us\": "
       << (s.dataPpdus ? s.dataAirtimeNs / 1e3 / s.dataPpdus : 0.0) << ", \"typical\": ";
    const std::tuple<uint64_t, uint64_t, int64_t>* best = nullptr;
    uint64_t bestCount = 0;
    for (const auto& [shape, count] : s.shapes)
    {
        if (count > bestCount)
        {
            best = &shape;
            bestCount = count;
        }
    }
    if (!best)
    {
        os << "null";
    }
    else
    {
        os << "{\"mpdus\": " << std::get<0>(*best) << ", \"psdu_bytes\": " << std::get<1>(*best)
           << ", \"ppdu_us\": " << std::get<2>(*best) / 1e3 << ", \"count\": " << bestCount
           << ", \"share\": " << static_cast<double>(bestCount) / s.dataPpdus << "}";
    }
    os << ", \"distinct_shapes\": " << s.shapes.size() << "}";
    return os.str();
}

} // namespace

int
main(int argc, char* argv[])
{
    HtArgs& a = g_fs.a;
    TcpArgs& t = g_fs.t;
    t.cc = "cubic"; // ns-3's default congestion control (TcpL4Protocol::SocketType)
    t.mss = 1448;   // 1500-byte IP packets with the timestamp option (as wifi-ht-network.cc)
    CommandLine cmd(__FILE__);
    a.Register(cmd);
    t.Register(cmd);
    cmd.Parse(argc, argv);
    a.Validate();
    if (a.traffic == "tcp")
    {
        t.Validate();
    }

    RngSeedManager::SetSeed(a.seed);
    RngSeedManager::SetRun(a.run);
    g_stats.warmup = Seconds(a.warmupS);
    if (a.traffic == "tcp")
    {
        t.Apply(); // before the internet stack is installed
    }

    NodeContainer& nodes = g_fs.nodes;
    nodes.Create(2); // node 0 = AP (receiver), node 1 = STA (sender)

    MobilityHelper mobility;
    auto pos = CreateObject<ListPositionAllocator>();
    pos->Add(Vector(0, 0, 0));
    pos->Add(Vector(a.distanceM, 0, 0));
    mobility.SetPositionAllocator(pos);
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(nodes);

    // ---- WiFi
    Config::SetDefault("ns3::WifiMacQueue::MaxSize",
                       QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, a.queuePackets)));
    Config::SetDefault("ns3::WifiMacQueue::MaxDelay",
                       TimeValue(a.queueMaxDelayMs > 0 ? MilliSeconds(a.queueMaxDelayMs)
                                                       : Seconds(1e6)));

    WifiHelper wifi;
    wifi.SetStandard(a.IsHt() ? WIFI_STANDARD_80211n
                              : (a.standard == "80211ac" ? WIFI_STANDARD_80211ac
                                                         : WIFI_STANDARD_80211ax));
    std::string dataMode;
    std::string controlMode;
    if (a.rateManager == "constant")
    {
        uint64_t refBps = 0;
        if (a.IsHt())
        {
            dataMode = "HtMcs" + std::to_string(a.mcs);
            refBps = HtPhy::GetNonHtReferenceRate(a.mcs);
        }
        else if (a.standard == "80211ac")
        {
            dataMode = "VhtMcs" + std::to_string(a.mcs);
            refBps = VhtPhy::GetNonHtReferenceRate(a.mcs);
            // VhtPhy::GetDataRate asserts on the combinations 802.11ac forbids
            // (VhtPhy::IsCombinationAllowed); WifiPhy::Send aborts on an invalid TXVECTOR.
            NS_ABORT_MSG_IF(!VhtPhy::GetVhtMcs(a.mcs).IsAllowed(MHz_u{double(a.Width())},
                                                               a.Antennas()),
                            "VHT MCS " << a.mcs << " is not allowed at " << a.Width()
                                       << " MHz with " << a.Antennas()
                                       << " spatial stream(s) (VhtPhy::IsCombinationAllowed)");
            WifiTxVector probe(VhtPhy::GetVhtMcs(a.mcs),
                               0,
                               WIFI_PREAMBLE_VHT_SU,
                               NanoSeconds(a.ShortGi() ? 400 : 800),
                               a.Antennas(),
                               a.Antennas(),
                               0,
                               MHz_u{double(a.Width())},
                               true);
            NS_ABORT_MSG_IF(!probe.IsValid(WIFI_PHY_BAND_5GHZ),
                            "VHT MCS " << a.mcs << " at " << a.Width() << " MHz with "
                                       << a.Antennas()
                                       << " spatial stream(s): invalid TXVECTOR "
                                          "(WifiTxVector::IsValid)");
        }
        else
        {
            dataMode = "HeMcs" + std::to_string(a.mcs);
            refBps = HePhy::GetNonHtReferenceRate(a.mcs);
        }
        const auto refMbps = refBps / 1000000;
        controlMode = (a.band == "5" ? "OfdmRate" : "ErpOfdmRate") + std::to_string(refMbps) +
                      "Mbps";
        wifi.SetRemoteStationManager(a.heGiFromConfig ? "ns3::AirtcpLocalGiConstantRateWifiManager"
                                                      : "ns3::ConstantRateWifiManager",
                                     "DataMode",
                                     StringValue(dataMode),
                                     "ControlMode",
                                     StringValue(controlMode));
    }
    else if (a.rateManager == "minstrel-ht")
    {
        wifi.SetRemoteStationManager("ns3::MinstrelHtWifiManager");
    }
    else
    {
        wifi.SetRemoteStationManager("ns3::IdealWifiManager");
    }
    wifi.ConfigHtOptions("ShortGuardIntervalSupported", BooleanValue(a.ShortGi()));
    if (a.standard == "80211ax" && a.giNs > 0)
    {
        wifi.ConfigHeOptions("GuardInterval", TimeValue(NanoSeconds(a.giNs)));
    }

    auto loss = CreateObject<LogDistancePropagationLossModel>();
    loss->SetAttribute("Exponent", DoubleValue(a.exponent));
    loss->SetAttribute("ReferenceDistance", DoubleValue(1.0));
    loss->SetAttribute("ReferenceLoss", DoubleValue(a.ReferenceLoss()));
    auto channel = CreateObject<YansWifiChannel>();
    channel->SetPropagationLossModel(loss);
    channel->SetPropagationDelayModel(CreateObject<ConstantSpeedPropagationDelayModel>());

    YansWifiPhyHelper phy; // default error model: TableBasedErrorRateModel
    phy.SetChannel(channel);
    const std::string channelSettings = "{0, " + std::to_string(a.Width()) + ", " +
                                        (a.band == "5" ? "BAND_5GHZ" : "BAND_2_4GHZ") + ", 0}";
    phy.Set("ChannelSettings", StringValue(channelSettings));
    phy.Set("TxPowerStart", DoubleValue(a.txPowerDbm));
    phy.Set("TxPowerEnd", DoubleValue(a.txPowerDbm));
    phy.Set("RxNoiseFigure", DoubleValue(a.noiseFigureDb));
    phy.Set("Antennas", UintegerValue(a.Antennas()));
    phy.Set("MaxSupportedTxSpatialStreams", UintegerValue(a.Antennas()));
    phy.Set("MaxSupportedRxSpatialStreams", UintegerValue(a.Antennas()));
    if (a.errorModel == "nist")
    {
        phy.SetErrorRateModel("ns3::NistErrorRateModel");
    }
    else if (a.errorModel == "yans")
    {
        phy.SetErrorRateModel("ns3::YansErrorRateModel");
    }

    const uint32_t frameRetryLimit = a.retryLimit + 1;
    const Ssid ssid("airtcp-ht");
    WifiMacHelper mac;
    mac.SetType("ns3::ApWifiMac",
                "Ssid",
                SsidValue(ssid),
                "FrameRetryLimit",
                UintegerValue(frameRetryLimit));
    if (a.ApMaxAmpdu() >= 0) // else ns-3's default (WifiMac BE_MaxAmpduSize)
    {
        mac.SetType("ns3::ApWifiMac", "BE_MaxAmpduSize", UintegerValue(a.ApMaxAmpdu()));
    }
    NetDeviceContainer apDev = wifi.Install(phy, mac, nodes.Get(0));
    // a fresh helper: ObjectFactory::SetTypeId keeps the attributes already set (the AP's)
    WifiMacHelper staMacHelper;
    staMacHelper.SetType("ns3::StaWifiMac",
                         "Ssid",
                         SsidValue(ssid),
                         "FrameRetryLimit",
                         UintegerValue(frameRetryLimit));
    if (a.maxAmpduBytes >= 0)
    {
        staMacHelper.SetType("ns3::StaWifiMac",
                             "BE_MaxAmpduSize",
                             UintegerValue(a.maxAmpduBytes));
    }
    NetDeviceContainer staDev = wifi.Install(phy, staMacHelper, nodes.Get(1));
    // the BE_MaxAmpduSize values in effect (the default when not set above)
    uint32_t staMaxAmpdu = 0;
    uint32_t apMaxAmpdu = 0;
    {
        UintegerValue v;
        DynamicCast<WifiNetDevice>(staDev.Get(0))->GetMac()->GetAttribute("BE_MaxAmpduSize", v);
        staMaxAmpdu = v.Get();
        DynamicCast<WifiNetDevice>(apDev.Get(0))->GetMac()->GetAttribute("BE_MaxAmpduSize", v);
        apMaxAmpdu = v.Get();
    }
    NetDeviceContainer& devices = g_fs.devices;
    devices.Add(apDev);
    devices.Add(staDev);
    // fixed RNG stream numbers -> results depend only on --seed/--run
    wifi.AssignStreams(devices, 0);

    for (uint32_t i = 0; i < 2; ++i)
    {
        auto dev = DynamicCast<WifiNetDevice>(devices.Get(i));
        auto wphy = dev->GetPhy();
        auto wmac = dev->GetMac();
        wphy->TraceConnectWithoutContext("PhyTxPsduBegin", MakeBoundCallback(&OnTx, i));
        wphy->TraceConnectWithoutContext("PhyRxDrop", MakeCallback(&OnPhyRxDrop));
        wphy->GetState()->TraceConnectWithoutContext("RxError", MakeBoundCallback(&OnRxError, i));
        wmac->TraceConnectWithoutContext("AckedMpdu", MakeBoundCallback(&OnAcked, i));
        wmac->TraceConnectWithoutContext("NAckedMpdu", MakeBoundCallback(&OnNAcked, i));
        wmac->TraceConnectWithoutContext("DroppedMpdu", MakeBoundCallback(&OnDropped, i));
        wmac->TraceConnectWithoutContext("MacTxDrop", MakeBoundCallback(&OnMacTxDrop, i));
        wmac->TraceConnectWithoutContext("MpduResponseTimeout",
                                         MakeBoundCallback(&OnMpduTimeout, i));
        wmac->TraceConnectWithoutContext("PsduResponseTimeout",
                                         MakeBoundCallback(&OnPsduTimeout, i));
        wmac->GetQosTxop(AC_BE)->GetBaManager()->TraceConnectWithoutContext(
            "AgreementState",
            MakeBoundCallback(&OnBaState, i));
    }
    g_band = DynamicCast<WifiNetDevice>(staDev.Get(0))->GetPhy()->GetPhyBand();
    auto staMac = DynamicCast<WifiNetDevice>(staDev.Get(0))->GetMac();
    staMac->TraceConnectWithoutContext("Assoc", MakeCallback(&OnAssoc));
    staMac->TraceConnectWithoutContext("DeAssoc", MakeCallback(&OnDeAssoc));

    // ---- IP (common.h: static ARP, no queue disc), traffic
    g_fs.ifs = BuildIp(nodes, devices);
    CountTcDropsAfterWarmup(nodes);
    CountingSink udpSink;
    if (a.traffic == "udp")
    {
        udpSink.Install(nodes.Get(0), 9);
    }

    if (a.seriesMs > 0)
    {
        g_fs.probe.EnableSeries(MicroSeconds(std::llround(a.seriesMs * 1e3)),
                                Seconds(a.durationS));
    }
    const double wall = TimedRun(a.durationS);
    const uint64_t events = Simulator::GetEventCount();
    if (a.traffic == "tcp")
    {
        g_fs.flow.Finish();
        g_fs.probe.Finish();
    }

    const double window = a.durationS - a.warmupS;
    const uint64_t rxBytes = a.traffic == "udp" ? udpSink.m_totalBytes : g_fs.flow.RxBytes();
    const double goodput = rxBytes * 8.0 / window;

    auto staPhy = DynamicCast<WifiNetDevice>(staDev.Get(0))->GetPhy();
    const Mac48Address apAddr = Mac48Address::ConvertFrom(apDev.Get(0)->GetAddress());
    const Mac48Address staAddr = Mac48Address::ConvertFrom(staDev.Get(0)->GetAddress());
    std::map<std::string, uint64_t> phyDrops;
    for (const auto& [reason, n] : g_stats.phyRxDrops)
    {
        std::ostringstream r;
        r << static_cast<WifiPhyRxfailureReason>(reason);
        phyDrops[r.str()] = n;
    }
    const double rxPowerDbm = loss->CalcRxPower(a.txPowerDbm,
                                                nodes.Get(1)->GetObject<MobilityModel>(),
                                                nodes.Get(0)->GetObject<MobilityModel>());
    const NodeTx& sta = g_tx[1];

    std::ostringstream os;
    os << std::setprecision(10);
    os << "{\"goodput_bps\": " << goodput << ", \"events\": " << events
       << ", \"wall_seconds\": " << wall << ", \"ppdus\": " << sta.dataPpdus
       << ", \"mpdus\": " << sta.dataMpdus << ", \"mean_mpdus_per_ppdu\": "
       << (sta.dataPpdus ? static_cast<double>(sta.dataMpdus) / sta.dataPpdus : 0.0)
       << ", \"mpdus_per_ppdu_hist\": " << JsonHist(sta.hist)
       << ", \"retransmitted_mpdus\": " << sta.retryMpdus
       << ", \"dropped_mpdus\": " << JsonStrMap(sta.drops)
       << ", \"associated_at_s\": " << g_fs.assocS << ", \"flow_start_s\": " << g_fs.flowStartS
       << ", \"associations\": " << g_fs.assocCount
       << ", \"disassociations\": " << g_fs.deassocCount
       << ", \"block_ack_sta_to_ap\": " << JsonAgreement(1, apAddr)
       << ", \"block_ack_ap_to_sta\": " << JsonAgreement(0, staAddr)
       << ", \"sta\": " << JsonNode(1) << ", \"ap\": " << JsonNode(0)
       << ", \"phy_rx_errors\": " << g_stats.phyRxErrors
       << ", \"phy_rx_drops\": " << JsonStrMap(phyDrops)
       << ", \"queue_full_drops\": " << g_stats.tcDrops
       << ", \"rx_power_dbm\": " << rxPowerDbm
       << ", \"channel_number\": " << +staPhy->GetChannelNumber()
       << ", \"frequency_mhz\": " << staPhy->GetFrequency()
       << ", \"channel_width_mhz\": " << staPhy->GetChannelWidth()
       << ", \"slot_us\": " << staPhy->GetSlot().GetMicroSeconds()
       << ", \"sifs_us\": " << staPhy->GetSifs().GetMicroSeconds()
       << ", \"measured_s\": " << window;
    if (!a.IsHt())
    {
        // VHT/HE only: 80211n's output stays as it was
        os << ", \"sta_data_ppdu\": " << JsonPpduShape(1)
           << ", \"ap_data_ppdu\": " << JsonPpduShape(0);
    }
    if (a.traffic == "tcp")
    {
        os << JsonTcp(t, g_fs.flow, window) << ", \"ack_rtt\": " << g_fs.probe.JsonAckRtt();
        if (g_fs.probe.IsBbr())
        {
            os << ", \"bbr\": " << g_fs.probe.JsonBbr();
        }
        if (a.seriesMs > 0)
        {
            os << ", \"series\": " << g_fs.probe.JsonSeries();
        }
    }
    os << ", \"config\": {\"traffic\": \"" << a.traffic << "\", \"rate_manager\": \""
       << a.rateManager << "\", \"mcs\": " << a.mcs << ", \"data_mode\": \"" << dataMode
       << "\", \"control_mode\": \"" << controlMode
       << "\", \"channel_width_mhz\": " << a.Width() << ", \"short_gi\": " << a.ShortGi()
       << ", \"band\": \"" << a.band << "\", \"channel_settings\": \"" << channelSettings
       << "\", \"antennas\": " << a.Antennas() << ", \"max_ampdu_bytes\": " << staMaxAmpdu
       << ", \"ap_max_ampdu_bytes\": " << apMaxAmpdu
       << ", \"payload_bytes\": " << (a.traffic == "udp" ? a.payloadBytes : t.mss)
       << ", \"distance_m\": " << a.distanceM << ", \"exponent\": " << a.exponent
       << ", \"reference_loss_db\": " << a.ReferenceLoss()
       << ", \"tx_power_dbm\": " << a.txPowerDbm << ", \"noise_figure_db\": " << a.noiseFigureDb
       << ", \"error_model\": \"" << a.errorModel << "\", \"duration_s\": " << a.durationS
       << ", \"warmup_s\": " << a.warmupS << ", \"seed\": " << a.seed << ", \"run\": " << a.run
       << ", \"retry_limit\": " << a.retryLimit << ", \"frame_retry_limit\": " << frameRetryLimit
       << ", \"queue_packets\": " << a.queuePackets
       << ", \"queue_max_delay_ms\": " << a.queueMaxDelayMs;
    if (a.seriesMs > 0)
    {
        os << ", \"series_ms\": " << a.seriesMs;
    }
    if (!a.IsHt())
    {
        const auto staDevice = DynamicCast<WifiNetDevice>(staDev.Get(0));
        // the guard interval the STA is configured with (HE: HeConfiguration::GuardInterval);
        // what is used on air is in sta.data_modes
        const int64_t giNs =
            a.standard == "80211ax"
                ? staDevice->GetHeConfiguration()->GetGuardInterval().GetNanoSeconds()
                : (a.ShortGi() ? 400 : 800);
        os << ", \"standard\": \"" << a.standard << "\", \"nss\": " << a.Antennas()
           << ", \"gi_ns\": " << giNs << ", \"max_ampdu_bytes_default\": "
           << (a.maxAmpduBytes < 0 ? "true" : "false")
           << ", \"he_gi_from_config\": " << (a.heGiFromConfig ? "true" : "false");
    }
    os << "}}";
    std::cout << os.str() << std::endl;

    Simulator::Destroy();
    return 0;
}
