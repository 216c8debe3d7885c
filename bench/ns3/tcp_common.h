// TCP helpers for the airtcp ns-3 reference benchmarks bss_tcp.cc and chain_tcp.cc.
//
// Target: ns-3 3.44 (PyPI wheel ns3==3.44.post0). Builds on common.h (WiFi/IP set-up, MAC/PHY
// counters, JSON). What is added here:
//  * TcpArgs: the TCP command-line arguments, mapped onto ns-3 attribute defaults with
//    Config::SetDefault() BEFORE the internet stack is installed (TcpL4Protocol reads
//    SocketType/RecoveryType when it creates a socket, TcpSocket/TcpSocketBase read their
//    attributes at socket construction). The defaults follow airtcp (= Linux), not ns-3; the
//    differences are listed in NOTES.md, section "TCP".
//  * Congestion control by Linux name -> ns-3 TypeId (kCcTable).
//  * TcpFlowStats: sender-side counters from TcpSocketBase / BulkSendApplication traces and a
//    sink byte counter, all counted after --warmupS, printed as the "tcp" JSON object.
#pragma once

#include "common.h"

#include <algorithm>
#include <utility>

namespace airtcp_bench
{
using namespace ns3;

/// Linux (airtcp) congestion-control name -> ns-3 TypeId name. ns-3 TypeId names (with or
/// without "ns3::") are accepted as well, e.g. --cc=TcpLinuxReno.
///  * newreno -> TcpNewReno (the brief's mapping). NB: airtcp's "newreno"/"reno" congestion
///    avoidance is Linux tcp_reno_cong_avoid (byte/segment counting, cwnd_cnt), which ns-3
///    ports as TcpLinuxReno; TcpNewReno increments per ACK (RFC 5681 (3) with L = 1 SMSS in
///    slow start, SMSS^2/cwnd per ACK in congestion avoidance), i.e. half as fast with delayed
///    ACKs. "reno" is therefore mapped to TcpLinuxReno; see NOTES.md "TCP".
///  * westwood -> TcpWestwoodPlus (ns-3 3.44 renamed TcpWestwood; airtcp's westwood is
///    Linux's tcp_westwood.c, which is Westwood+).
///  * bbr -> TcpBbr (BBR v1, a port of Linux 5.4's tcp_bbr.c). TcpArgs::Apply turns pacing on
///    for it; see TcpArgs::paceInitialWindow and NOTES.md "BBR on the wired bottleneck".
inline const std::vector<std::pair<std::string, std::string>> kCcTable{
    {"newreno", "ns3::TcpNewReno"},
    {"reno", "ns3::TcpLinuxReno"},
    {"linuxreno", "ns3::TcpLinuxReno"},
    {"cubic", "ns3::TcpCubic"},
    {"bic", "ns3::TcpBic"},
    {"vegas", "ns3::TcpVegas"},
    {"veno", "ns3::TcpVeno"},
    {"westwood", "ns3::TcpWestwoodPlus"},
    {"illinois", "ns3::TcpIllinois"},
    {"bbr", "ns3::TcpBbr"},
};

inline std::string
CcTypeIdName(const std::string& cc)
{
    for (const auto& [name, ns3name] : kCcTable)
    {
        if (cc == name)
        {
            return ns3name;
        }
    }
    const std::string full = cc.rfind("ns3::", 0) == 0 ? cc : "ns3::" + cc;
    TypeId tid;
    NS_ABORT_MSG_IF(!TypeId::LookupByNameFailSafe(full, &tid),
                    "--cc: unknown congestion control " << cc);
    return full;
}

/// TCP command-line parameters (defaults = airtcp's [tcp] defaults).
struct TcpArgs
{
    std::string cc{"newreno"};
    std::string recovery{"classic"}; ///< classic (TcpClassicRecovery) | prr (ns-3 default)
    uint32_t mss{1460};              ///< TcpSocket::SegmentSize (ns-3 default 536)
    uint32_t delAckCount{2};         ///< TcpSocket::DelAckCount (1 = ACK every segment)
    double delAckTimeoutMs{40};      ///< TcpSocket::DelAckTimeout (ns-3 default 200 ms)
    double minRtoMs{200};            ///< TcpSocketBase::MinRto (ns-3 default 1 s)
    double clockGranularityMs{1};    ///< TcpSocketBase::ClockGranularity (ns-3 default 1 ms)
    uint32_t initialCwnd{10};        ///< TcpSocket::InitialCwnd (ns-3 default 10)
    bool timestamps{true};           ///< TcpSocketBase::Timestamp (ns-3 default true)
    bool sack{false};                ///< TcpSocketBase::Sack (ns-3 default true; airtcp: none)
    bool windowScaling{true};        ///< TcpSocketBase::WindowScaling
    bool limitedTransmit{true};      ///< TcpSocketBase::LimitedTransmit
    uint32_t sndRcvBuf{6291456};     ///< TcpSocket::SndBufSize and RcvBufSize (ns-3: 128 KiB)
    uint32_t sndBuf{0};              ///< TcpSocket::SndBufSize if > 0 (else sndRcvBuf)
    uint32_t rcvBuf{0};              ///< TcpSocket::RcvBufSize if > 0 (else sndRcvBuf)
    uint32_t dataRetries{1000};      ///< TcpSocket::DataRetries (ns-3 default 6)
    /// TcpSocketState::PaceInitialWindow: -1 = automatic (1 for bbr, ns-3's default 0 left
    /// untouched otherwise), 0 or 1 = set it (with pacing on for bbr only).
    int paceInitialWindow{-1};

    bool IsBbr() const
    {
        return CcTypeIdName(cc) == "ns3::TcpBbr";
    }

    /// Pacing is switched on (TcpSocketState::EnablePacing) for BBR only.
    bool Pacing() const
    {
        return IsBbr();
    }

    bool PaceInitialWindow() const
    {
        return paceInitialWindow < 0 ? IsBbr() : paceInitialWindow > 0;
    }

    void Register(CommandLine& cmd)
    {
        cmd.AddValue("cc",
                     "congestion control: newreno|reno|cubic|bic|vegas|veno|westwood|illinois|"
                     "bbr or an ns-3 TypeId name (TcpLinuxReno, ...)",
                     cc);
        cmd.AddValue("recovery", "loss recovery: classic (TcpClassicRecovery) | prr", recovery);
        cmd.AddValue("mss", "TCP segment size (payload bytes)", mss);
        cmd.AddValue("delAckCount", "ACK every this many segments (TcpSocket::DelAckCount)",
                     delAckCount);
        cmd.AddValue("delAckTimeoutMs", "delayed-ACK timeout (ms)", delAckTimeoutMs);
        cmd.AddValue("minRtoMs", "minimum RTO (ms)", minRtoMs);
        cmd.AddValue("clockGranularityMs", "RTO clock granularity G (ms)", clockGranularityMs);
        cmd.AddValue("initialCwnd", "initial cwnd (segments)", initialCwnd);
        cmd.AddValue("timestamps", "RFC 7323 timestamps (0/1)", timestamps);
        cmd.AddValue("sack", "SACK (0/1)", sack);
        cmd.AddValue("windowScaling", "window scaling (0/1)", windowScaling);
        cmd.AddValue("limitedTransmit", "RFC 3042 limited transmit (0/1)", limitedTransmit);
        cmd.AddValue("sndRcvBuf", "socket send and receive buffer (bytes)", sndRcvBuf);
        cmd.AddValue("sndBuf", "send buffer (bytes), overrides --sndRcvBuf if > 0", sndBuf);
        cmd.AddValue("rcvBuf", "receive buffer (bytes), overrides --sndRcvBuf if > 0", rcvBuf);
        cmd.AddValue("dataRetries", "RTOs of one segment before the socket gives up",
                     dataRetries);
        cmd.AddValue("paceInitialWindow",
                     "pace the initial window too (TcpSocketState::PaceInitialWindow): "
                     "-1 = 1 for bbr, else ns-3's default (0)",
                     paceInitialWindow);
    }

    void Validate() const
    {
        NS_ABORT_MSG_IF(recovery != "classic" && recovery != "prr",
                        "--recovery must be classic or prr");
        NS_ABORT_MSG_IF(mss < 1 || mss > 2244, "--mss out of range (1..2244)");
        NS_ABORT_MSG_IF(delAckCount < 1, "--delAckCount must be >= 1");
        NS_ABORT_MSG_IF(initialCwnd < 1, "--initialCwnd must be >= 1");
        NS_ABORT_MSG_IF(SndBuf() < mss || RcvBuf() < mss, "socket buffers must be >= --mss");
        NS_ABORT_MSG_IF(paceInitialWindow < -1 || paceInitialWindow > 1,
                        "--paceInitialWindow must be -1, 0 or 1");
        (void)CcTypeIdName(cc);
    }

    uint32_t SndBuf() const
    {
        return sndBuf > 0 ? sndBuf : sndRcvBuf;
    }

    uint32_t RcvBuf() const
    {
        return rcvBuf > 0 ? rcvBuf : sndRcvBuf;
    }

    /// Set the ns-3 attribute defaults. Call before InternetStackHelper::Install.
    void Apply() const
    {
        Config::SetDefault("ns3::TcpL4Protocol::SocketType",
                           TypeIdValue(TypeId::LookupByName(CcTypeIdName(cc))));
        Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                           TypeIdValue(TypeId::LookupByName(recovery == "prr"
                                                                ? "ns3::TcpPrrRecovery"
                                                                : "ns3::TcpClassicRecovery")));
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(mss));
        Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(initialCwnd));
        Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(delAckCount));
        Config::SetDefault("ns3::TcpSocket::DelAckTimeout",
                           TimeValue(MicroSeconds(std::llround(delAckTimeoutMs * 1000))));
        Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(SndBuf()));
        Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(RcvBuf()));
        Config::SetDefault("ns3::TcpSocket::DataRetries", UintegerValue(dataRetries));
        Config::SetDefault("ns3::TcpSocketBase::MinRto",
                           TimeValue(MicroSeconds(std::llround(minRtoMs * 1000))));
        Config::SetDefault(
            "ns3::TcpSocketBase::ClockGranularity",
            TimeValue(MicroSeconds(std::llround(clockGranularityMs * 1000))));
        Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(timestamps));
        Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(sack));
        Config::SetDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(windowScaling));
        Config::SetDefault("ns3::TcpSocketBase::LimitedTransmit", BooleanValue(limitedTransmit));
        // BBR paces (ns-3.44 src/internet/model/tcp-bbr.cc:172-176: TcpBbr::InitPacingRate
        // turns TcpSocketState::m_pacing on itself, with a "BBR must use pacing" warning, when
        // the connection opens; examples/tcp/tcp-bbr-example.cc:142-153 relies on that and sets
        // no pacing attribute). Set explicitly here so that it does not hinge on that fallback.
        // The TcpSocketState is created in the TcpSocketBase constructor
        // (tcp-socket-base.cc:304), so these defaults reach every socket. PaceInitialWindow: ns-3
        // sends the initial window unpaced by default (tcp-socket-base.cc:4701-4719,
        // IsPacingEnabled: pacing only once HighTxMark > InitialCwnd x MSS; tcp-socket-state.cc:
        // 41-45), whereas Linux paces from the first segment once bbr_init() has set
        // sk_pacing_rate = high_gain x cwnd / srtt (tcp_bbr.c bbr_init_pacing_rate_from_rtt):
        // 1 for bbr. ns-3's BBR sets the pacing rate itself (TcpSocketBase::UpdatePacingRate
        // returns early for a congestion control with CongControl, tcp-socket-base.cc:4739),
        // so PacingSsRatio/PacingCaRatio do not apply. SACK is not required by TcpBbr (it reads
        // TcpRateLinux's samples either way); --sack keeps its meaning. Other ccs: untouched.
        if (Pacing())
        {
            Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(true));
        }
        if (paceInitialWindow >= 0 || IsBbr())
        {
            Config::SetDefault("ns3::TcpSocketState::PaceInitialWindow",
                               BooleanValue(PaceInitialWindow()));
        }
    }

    std::string Json() const
    {
        std::ostringstream os;
        os << "{\"cc\": \"" << cc << "\", \"cc_typeid\": \"" << CcTypeIdName(cc)
           << "\", \"recovery\": \"" << recovery << "\", \"mss\": " << mss
           << ", \"del_ack_count\": " << delAckCount
           << ", \"del_ack_timeout_ms\": " << delAckTimeoutMs
           << ", \"min_rto_ms\": " << minRtoMs
           << ", \"clock_granularity_ms\": " << clockGranularityMs
           << ", \"initial_cwnd\": " << initialCwnd << ", \"timestamps\": " << timestamps
           << ", \"sack\": " << sack << ", \"window_scaling\": " << windowScaling
           << ", \"limited_transmit\": " << limitedTransmit << ", \"snd_buf\": " << SndBuf()
           << ", \"rcv_buf\": " << RcvBuf()
           << ", \"data_retries\": " << dataRetries;
        if (paceInitialWindow >= 0 || IsBbr()) // absent otherwise: older outputs unchanged
        {
            os << ", \"pacing\": " << Pacing()
               << ", \"pace_initial_window\": " << PaceInitialWindow();
        }
        os << "}";
        return os.str();
    }
};

/// Sender/receiver counters of one bulk TCP flow (after warmup unless noted).
class TcpFlowStats
{
  public:
    /// Connect to the BulkSendApplication (before it starts) and to the PacketSink.
    void Attach(Ptr<BulkSendApplication> bulk, Ptr<PacketSink> sink, uint32_t mss, Time start)
    {
        m_mss = mss;
        m_bulk = bulk;
        bulk->TraceConnectWithoutContext("TcpRetransmission",
                                         MakeCallback(&TcpFlowStats::OnRetransmission, this));
        sink->TraceConnectWithoutContext("Rx", MakeCallback(&TcpFlowStats::OnSinkRx, this));
        // BulkSendApplication creates its socket in StartApplication(): hook the socket's
        // traces right after that.
        Simulator::Schedule(start + NanoSeconds(1), &TcpFlowStats::HookSocket, this);
    }

    /// Close the time integrals at the end of the run.
    void Finish()
    {
        AccumulateCwnd();
    }

    std::string Json(double window) const
    {
        const double measured = window;
        std::ostringstream os;
        os << std::setprecision(10);
        os << "{\"rx_bytes\": " << m_rxBytes << ", \"rx_bytes_total\": " << m_rxBytesTotal
           << ", \"segments_sent\": " << m_segmentsSent
           << ", \"retransmissions\": " << m_retransmissions
           << ", \"retransmissions_by_seq\": " << m_retxBySeq
           << ", \"timeouts\": " << m_timeouts << ", \"rto_expiries\": " << m_rtoExpiries
           << ", \"fast_retransmits\": " << m_fastRetx
           << ", \"pure_acks_received\": " << m_pureAcksRx
           << ", \"rtt_samples\": " << m_rttSamples << ", \"rtt_mean_s\": "
           << (m_rttSamples ? m_rttSumS / m_rttSamples : 0.0)
           << ", \"mean_cwnd_segments\": " << (measured > 0 ? m_cwndArea / measured : 0.0)
           << ", \"final_cwnd_segments\": " << static_cast<double>(m_cwnd) / m_mss
           << ", \"final_ssthresh_segments\": " << static_cast<double>(m_ssthresh) / m_mss
           << ", \"socket_hooked\": " << (m_socket ? "true" : "false") << "}";
        return os.str();
    }

    uint64_t RxBytes() const
    {
        return m_rxBytes;
    }

  private:
    void HookSocket()
    {
        auto s = DynamicCast<TcpSocketBase>(m_bulk->GetSocket());
        NS_ABORT_MSG_IF(!s, "BulkSendApplication has no TcpSocketBase");
        m_socket = s;
        s->TraceConnectWithoutContext("Tx", MakeCallback(&TcpFlowStats::OnTx, this));
        s->TraceConnectWithoutContext("Rx", MakeCallback(&TcpFlowStats::OnRx, this));
        s->TraceConnectWithoutContext("CongState", MakeCallback(&TcpFlowStats::OnCongState, this));
        s->TraceConnectWithoutContext("LastRTT", MakeCallback(&TcpFlowStats::OnRtt, this));
        s->TraceConnectWithoutContext("CongestionWindow",
                                      MakeCallback(&TcpFlowStats::OnCwnd, this));
        s->TraceConnectWithoutContext("SlowStartThreshold",
                                      MakeCallback(&TcpFlowStats::OnSsthresh, this));
        s->TraceConnectWithoutContext("RTO", MakeCallback(&TcpFlowStats::OnRto, this));
        m_cwndSince = Simulator::Now();
    }

    void OnRetransmission(Ptr<const Packet>,
                          const TcpHeader&,
                          const Address&,
                          const Address&,
                          Ptr<const TcpSocketBase>)
    {
        if (InWindow())
        {
            m_retransmissions++;
        }
    }

    void OnTx(Ptr<const Packet> p, const TcpHeader& h, Ptr<const TcpSocketBase>)
    {
        const uint32_t len = p->GetSize();
        const bool synFin = (h.GetFlags() & (TcpHeader::SYN | TcpHeader::FIN)) != 0;
        if (len == 0 && !synFin)
        {
            return; // pure ACK
        }
        const uint64_t seq = h.GetSequenceNumber().GetValue();
        // 32-bit sequence space; a 100 s run at < 100 Mbit/s stays below 2^32 bytes.
        const uint64_t end = seq + len + (synFin ? 1 : 0);
        if (InWindow())
        {
            m_segmentsSent++;
            if (seq < m_highEnd)
            {
                m_retxBySeq++;
            }
        }
        m_highEnd = std::max(m_highEnd, end);
    }

    void OnRx(Ptr<const Packet> p, const TcpHeader&, Ptr<const TcpSocketBase>)
    {
        if (p->GetSize() == 0 && InWindow())
        {
            m_pureAcksRx++;
        }
    }

    /// One ReTxTimeout() with data outstanding doubles m_rto (capped at 60 s); every other
    /// update comes from an RTT estimate. Unlike entries into CA_LOSS ("timeouts"), this also
    /// counts a second RTO while in CA_LOSS (as wired_tcp.cc).
    void OnRto(Time oldRto, Time newRto)
    {
        const Time doubled = Min(oldRto + oldRto, Seconds(60));
        if (newRto > oldRto && newRto == doubled && InWindow())
        {
            m_rtoExpiries++;
        }
    }

    void OnCongState(TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
    {
        if (!InWindow())
        {
            return;
        }
        if (now == TcpSocketState::CA_LOSS)
        {
            m_timeouts++;
        }
        else if (now == TcpSocketState::CA_RECOVERY)
        {
            m_fastRetx++;
        }
    }

    void OnRtt(Time, Time rtt)
    {
        if (InWindow() && rtt.IsStrictlyPositive())
        {
            m_rttSamples++;
            m_rttSumS += rtt.GetSeconds();
        }
    }

    void AccumulateCwnd()
    {
        const Time now = Simulator::Now();
        const Time from = std::max(m_cwndSince, g_stats.warmup);
        if (now > from)
        {
            m_cwndArea += (now - from).GetSeconds() * static_cast<double>(m_cwnd) / m_mss;
        }
        m_cwndSince = now;
    }

    void OnCwnd(uint32_t, uint32_t cwnd)
    {
        AccumulateCwnd();
        m_cwnd = cwnd;
    }

    void OnSsthresh(uint32_t, uint32_t ssthresh)
    {
        m_ssthresh = ssthresh;
    }

    void OnSinkRx(Ptr<const Packet> p, const Address&)
    {
        m_rxBytesTotal += p->GetSize();
        if (InWindow())
        {
            m_rxBytes += p->GetSize();
        }
    }

    uint32_t m_mss{1};
    Ptr<BulkSendApplication> m_bulk;
    Ptr<TcpSocketBase> m_socket;
    uint64_t m_rxBytes{0};
    uint64_t m_rxBytesTotal{0};
    uint64_t m_segmentsSent{0};
    uint64_t m_retransmissions{0};
    uint64_t m_retxBySeq{0};
    uint64_t m_highEnd{0};
    uint64_t m_timeouts{0};
    uint64_t m_rtoExpiries{0};
    uint64_t m_fastRetx{0};
    uint64_t m_pureAcksRx{0};
    uint64_t m_rttSamples{0};
    double m_rttSumS{0};
    uint32_t m_cwnd{0};
    uint32_t m_ssthresh{0};
    Time m_cwndSince;
    double m_cwndArea{0};
};

/// TrafficControlLayer "TcDrop" (full WifiMacQueue) after --warmupS; common.h's
/// queue_full_drops counts the whole run.
inline uint64_t g_tcDropsAfterWarmup = 0;

inline void
OnTcDropAfterWarmup(Ptr<const Packet>)
{
    if (InWindow())
    {
        g_tcDropsAfterWarmup++;
    }
}

/// Connect OnTcDropAfterWarmup on every node (after BuildIp).
inline void
CountTcDropsAfterWarmup(const NodeContainer& nodes)
{
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        nodes.Get(i)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
            "TcDrop",
            MakeCallback(&OnTcDropAfterWarmup));
    }
}

/// Install a BulkSendApplication on `src` towards `dst:port` and a PacketSink on `sinkNode`.
inline std::pair<Ptr<BulkSendApplication>, Ptr<PacketSink>>
InstallBulkFlow(Ptr<Node> src,
                Ptr<Node> sinkNode,
                Ipv4Address dst,
                uint16_t port,
                uint32_t mss,
                Time start,
                Time stop)
{
    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sinkApps = sinkHelper.Install(sinkNode);
    sinkApps.Start(Seconds(0));
    sinkApps.Stop(stop);

    BulkSendHelper bulkHelper("ns3::TcpSocketFactory", InetSocketAddress(dst, port));
    bulkHelper.SetAttribute("MaxBytes", UintegerValue(0)); // unlimited
    // Write whole segments into the socket (the TCP layer segments by SegmentSize anyway).
    bulkHelper.SetAttribute("SendSize", UintegerValue(mss));
    ApplicationContainer bulkApps = bulkHelper.Install(src);
    bulkApps.Start(start);
    bulkApps.Stop(stop);
    return {DynamicCast<BulkSendApplication>(bulkApps.Get(0)),
            DynamicCast<PacketSink>(sinkApps.Get(0))};
}

/// The TCP part of the JSON output (a string of `, "key": value` pairs).
inline std::string
JsonTcp(const TcpArgs& t, const TcpFlowStats& s, double window)
{
    std::ostringstream os;
    os << ", \"queue_full_drops_after_warmup\": " << g_tcDropsAfterWarmup
       << ", \"tcp\": " << s.Json(window) << ", \"tcp_config\": " << t.Json();
    return os.str();
}

} // namespace airtcp_bench
