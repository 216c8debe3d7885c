// wired_tcp.cc -- ns-3 3.44 reference for airtcp's examples/wired-bottleneck.toml (issue 34):
// one bulk TCP upload over a wired dumbbell, no WiFi.
//
//   sender --(access: 1000 Mbit/s, 0 ms, 1000 packets)-- router
//          --(bottleneck: --rateMbps, --delayMs, --queuePackets at each end)-- receiver
//
// Set-up (reasons and ns-3 source references in NOTES.md, section "Wired bottleneck"):
//  * PointToPointHelper links, a DropTailQueue<Packet> of MaxSize N packets in every device.
//    N counts the packets waiting: PointToPointNetDevice::Send dequeues a packet before
//    TransmitStart, so the one on the wire is not counted (airtcp's queue_limit_packets).
//    The device adds a 2-byte PPP header, so a 1460-byte segment with the timestamp option is
//    1514 bytes on the wire, as in airtcp.
//  * No queue disc anywhere: PointToPointHelper::DisableFlowControl() leaves the devices
//    without a NetDeviceQueueInterface, so Ipv4AddressHelper::Assign installs no default
//    FqCoDel queue disc and TrafficControlLayer::Send hands every packet straight to the
//    device. The device queue is the only queue; checked after the set-up.
//  * Device MTU raised to fit MSS + 80 header bytes (the 1512-byte IP packets of MSS 1460 with
//    timestamps would otherwise be fragmented at the default MTU of 1500).
//  * Random loss (--loss, --reverseLoss): a RateErrorModel in ERROR_UNIT_PACKET as the
//    ReceiveErrorModel of the device at the far end of the bottleneck, one independent draw per
//    packet. A lost packet has been queued and serialised, then is dropped: the same as airtcp's
//    `loss`, which draws when the packet leaves the wire (World::on_wired_tx_end).
//  * IPv4 only, static ARP, global routing. BulkSendApplication -> PacketSink, started at
//    --startS (default 0), TCP attributes from tcp_common.h (TcpArgs) with airtcp's defaults
//    for this example: TcpCubic, SACK on, PRR (ns-3's default recovery), MSS 1460, timestamps,
//    MinRto 200 ms, InitialCwnd 10, DelAckCount 2, DelAckTimeout 40 ms, send buffer 4 MiB,
//    receive buffer 6 MiB.
//
//  * --seriesMs=N (0 = off, the default): every N ms of simulated time, a sample of the
//    sender's cwnd (bytes), pacing rate (bit/s), last RTT sample (ms), the bytes the sink has
//    received so far and, for TcpBbr, its state (TcpBbr::GetBbrState() is public, reached
//    through the socket's "CongestionOps" attribute), as the JSON key "series". With it come
//    figures taken from the trace sources, not the sampling: "min_cwnd_bytes_after_5s",
//    "cwnd_dips_s" (the times cwnd fell from above 4 segments to 4 or below, after 5 s: BBR's
//    ProbeRTT dips; a fall less than 1 s after cwnd was last that low belongs to the same
//    dip), "bbr_probe_rtt_s" (entries into PROBE_RTT, BBR only),
//    "pacing_rate_mean_bps" (time-weighted over [--warmupS, --durationS]) and
//    "rtt_median_s" (of the per-ACK samples that "rtt_mean_s" averages). Without --seriesMs the
//    output is unchanged. NOTES.md, section "BBR on the wired bottleneck".
//
// Output: one JSON line (keys in NOTES.md).
//
// Example:
//   ./wired_tcp --rateMbps=5 --delayMs=10 --queuePackets=2 --cc=cubic --recovery=prr \
//       --durationS=30 --seed=1 --run=1

#include "tcp_common.h"

#include "ns3/point-to-point-module.h"

using namespace ns3;
using namespace airtcp_bench;

namespace
{

/// Counters of the one bulk flow, from the sender's socket and the sink.
class WiredFlowStats
{
  public:
    void Attach(Ptr<BulkSendApplication> bulk,
                Ptr<PacketSink> sink,
                uint32_t mss,
                Time start,
                Time warmup,
                Time end)
    {
        m_mss = mss;
        m_bulk = bulk;
        m_warmup = warmup;
        m_end = end;
        sink->TraceConnectWithoutContext("Rx", MakeCallback(&WiredFlowStats::OnSinkRx, this));
        // BulkSendApplication creates its socket in StartApplication(): hook it right after.
        Simulator::Schedule(start + NanoSeconds(1), &WiredFlowStats::HookSocket, this);
    }

    void Finish()
    {
        Accumulate(Simulator::Now(), m_cwnd);
        AccumulatePacing(Simulator::Now());
        FlushBurst();
    }

    /// Switch on the series (one sample every `interval`) and the figures that come with it.
    void EnableSeries(Time interval)
    {
        m_seriesInterval = interval;
        Simulator::Schedule(interval, &WiredFlowStats::Sample, this);
        Simulator::Schedule(DipsAfter(), &WiredFlowStats::StartDipWatch, this);
    }

    bool SeriesEnabled() const
    {
        return m_seriesInterval.IsStrictlyPositive();
    }

    /// The keys that come with --seriesMs (a string of `, "key": value` pairs).
    std::string SeriesJson() const
    {
        const double measured = (m_end - m_warmup).GetSeconds();
        std::ostringstream os;
        os << std::setprecision(10);
        os << ", \"min_cwnd_bytes_after_5s\": ";
        if (m_dipWatch)
        {
            os << m_minCwndAfter;
        }
        else
        {
            os << "null";
        }
        os << ", \"cwnd_dips_s\": " << JsonArray(m_dips)
           << ", \"bbr_probe_rtt_s\": " << JsonArray(m_probeRttEntries)
           << ", \"pacing_rate_mean_bps\": " << (measured > 0 ? m_pacingArea / measured : 0.0)
           << ", \"rtt_median_s\": " << Median(m_rttValues) << ", \"series\": {\"t_s\": "
           << JsonArray(m_sT) << ", \"cwnd_bytes\": " << JsonArray(m_sCwnd)
           << ", \"pacing_rate_bps\": " << JsonArray(m_sPacing)
           << ", \"rtt_ms\": " << JsonArray(m_sRtt) << ", \"rx_bytes\": " << JsonArray(m_sRx);
        if (m_bbr)
        {
            os << ", \"bbr_state\": " << JsonArray(m_sState);
        }
        os << "}";
        return os.str();
    }

    std::string Json() const
    {
        const double measured = (m_end - m_warmup).GetSeconds();
        std::ostringstream os;
        os << std::setprecision(10);
        os << "\"goodput_bps\": " << (measured > 0 ? m_rxBytes * 8.0 / measured : 0.0)
           << ", \"retransmissions\": " << m_retransmissions
           << ", \"timeouts\": " << m_rtoExpiries << ", \"fast_retransmits\": " << m_recoveries
           << ", \"mean_cwnd_segments\": " << (measured > 0 ? m_cwndArea / measured : 0.0)
           << ", \"rtt_mean_s\": " << (m_rttSamples ? m_rttSumS / m_rttSamples : 0.0)
           << ", \"rtt_samples\": " << m_rttSamples
           << ", \"rtt_mean_lastrtt_trace_s\": "
           << (m_lastRttEvents ? m_lastRttSumS / m_lastRttEvents : 0.0)
           << ", \"lastrtt_trace_events\": " << m_lastRttEvents
           << ", \"segments_sent\": " << m_segmentsSent
           << ", \"retransmissions_by_seq\": " << m_retxBySeq
           << ", \"retransmissions_in_recovery\": " << m_retxInRecovery
           << ", \"retransmissions_in_loss\": " << m_retxInLoss
           << ", \"retransmissions_repeated\": " << m_retxRepeated
           << ", \"loss_state_entries\": " << m_lossEntries << ", \"rx_bytes\": " << m_rxBytes
           << ", \"rx_bytes_total\": " << m_rxBytesTotal
           << ", \"final_cwnd_segments\": " << static_cast<double>(m_cwnd) / m_mss
           << ", \"final_ssthresh_segments\": " << static_cast<double>(m_ssthresh) / m_mss
           << ", \"socket_hooked\": " << (m_socket ? "true" : "false")
           << ", \"tx_bursts\": {";
        bool first = true;
        for (const auto& [size, n] : m_bursts)
        {
            os << (first ? "" : ", ") << "\"" << size << "\": " << n;
            first = false;
        }
        os << "}";
        return os.str();
    }

  private:
    /// BBR's ProbeRTT holds cwnd at 4 segments (tcp-bbr.cc:725, m_minPipeCwnd): a dip is cwnd
    /// falling to that or below, counted from this time on.
    static constexpr uint32_t kDipSegments = 4;
    static Time DipsAfter()
    {
        return Seconds(5);
    }

    static Time DipMerge()
    {
        return Seconds(1);
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

    static double Median(std::vector<double> v)
    {
        if (v.empty())
        {
            return 0.0;
        }
        const size_t mid = v.size() / 2;
        std::nth_element(v.begin(), v.begin() + mid, v.end());
        const double hi = v[mid];
        if (v.size() % 2)
        {
            return hi;
        }
        return (*std::max_element(v.begin(), v.begin() + mid) + hi) / 2;
    }

    void Sample()
    {
        const Time now = Simulator::Now();
        if (now >= m_end)
        {
            return;
        }
        CheckBbrState();
        m_sT.push_back(now.GetSeconds());
        m_sCwnd.push_back(m_cwnd);
        m_sPacing.push_back(m_pacingBps);
        m_sRtt.push_back(m_lastRtt.GetSeconds() * 1e3);
        m_sRx.push_back(m_rxBytesTotal);
        if (m_bbr)
        {
            m_sState.push_back(m_bbr->GetBbrState());
        }
        Simulator::Schedule(m_seriesInterval, &WiredFlowStats::Sample, this);
    }

    void StartDipWatch()
    {
        if (m_socket && !m_dipWatch)
        {
            m_dipWatch = true;
            m_minCwndAfter = m_cwnd;
            if (m_cwnd <= kDipSegments * m_mss) // a dip under way at 5 s is not a new one
            {
                m_wasLow = true;
                m_lastLow = Simulator::Now();
            }
        }
    }

    /// Entries into PROBE_RTT, seen at the socket's next cwnd change, send or sample.
    void CheckBbrState()
    {
        if (!m_bbr)
        {
            return;
        }
        const uint32_t state = m_bbr->GetBbrState();
        if (state != m_bbrState && state == TcpBbr::BBR_PROBE_RTT)
        {
            m_probeRttEntries.push_back(Simulator::Now().GetSeconds());
        }
        m_bbrState = state;
    }

    void AccumulatePacing(Time now)
    {
        const Time from = std::max(m_pacingSince, m_warmup);
        if (now > from)
        {
            m_pacingArea += (now - from).GetSeconds() * m_pacingBps;
        }
        m_pacingSince = now;
    }

    void OnPacingRate(DataRate, DataRate rate)
    {
        if (!SeriesEnabled())
        {
            return;
        }
        AccumulatePacing(Simulator::Now());
        m_pacingBps = static_cast<double>(rate.GetBitRate());
    }

    void FlushBurst()
    {
        if (m_burst > 0)
        {
            m_bursts[m_burst]++;
        }
        m_burst = 0;
    }

    bool Measuring() const
    {
        return Simulator::Now() >= m_warmup;
    }

    void HookSocket()
    {
        auto s = DynamicCast<TcpSocketBase>(m_bulk->GetSocket());
        NS_ABORT_MSG_IF(!s, "BulkSendApplication has no TcpSocketBase");
        m_socket = s;
        s->TraceConnectWithoutContext("Tx", MakeCallback(&WiredFlowStats::OnTx, this));
        s->TraceConnectWithoutContext("Rx", MakeCallback(&WiredFlowStats::OnRx, this));
        s->TraceConnectWithoutContext("Retransmission",
                                      MakeCallback(&WiredFlowStats::OnRetransmission, this));
        s->TraceConnectWithoutContext("RTO", MakeCallback(&WiredFlowStats::OnRto, this));
        s->TraceConnectWithoutContext("CongState",
                                      MakeCallback(&WiredFlowStats::OnCongState, this));
        s->TraceConnectWithoutContext("LastRTT", MakeCallback(&WiredFlowStats::OnLastRtt, this));
        s->TraceConnectWithoutContext("CongestionWindow",
                                      MakeCallback(&WiredFlowStats::OnCwnd, this));
        s->TraceConnectWithoutContext("SlowStartThreshold",
                                      MakeCallback(&WiredFlowStats::OnSsthresh, this));
        m_cwndSince = Simulator::Now();
        if (SeriesEnabled())
        {
            s->TraceConnectWithoutContext("PacingRate",
                                          MakeCallback(&WiredFlowStats::OnPacingRate, this));
            m_pacingSince = Simulator::Now();
            PointerValue cc;
            s->GetAttribute("CongestionOps", cc);
            m_bbr = DynamicCast<TcpBbr>(cc.Get<TcpCongestionOps>());
            if (m_bbr)
            {
                m_bbrState = m_bbr->GetBbrState();
            }
        }
    }

    /// TcpTxItem::IsRetrans(): every resend of a byte range already sent (fast retransmit,
    /// SACK hole, RTO, ...), SendDataPacket's "Retransmission" trace.
    void OnRetransmission(Ptr<const Packet>,
                          const TcpHeader& h,
                          const Address&,
                          const Address&,
                          Ptr<const TcpSocketBase>)
    {
        if (!Measuring())
        {
            return;
        }
        m_retransmissions++;
        if (m_congState == TcpSocketState::CA_LOSS)
        {
            m_retxInLoss++;
        }
        else if (m_congState == TcpSocketState::CA_RECOVERY)
        {
            m_retxInRecovery++;
        }
        if (m_retransmittedSeqs[h.GetSequenceNumber().GetValue()]++ > 0)
        {
            m_retxRepeated++;
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
        // 32-bit sequence space; 30 s at 20 Mbit/s stays far below 2^32 bytes.
        const uint64_t seq = h.GetSequenceNumber().GetValue();
        const uint64_t end = seq + len + (synFin ? 1 : 0);
        if (Measuring())
        {
            m_segmentsSent++;
            if (seq < m_highEnd)
            {
                m_retxBySeq++;
            }
            // Segments handed to IP at the same instant (one burst).
            if (Simulator::Now() == m_burstAt)
            {
                m_burst++;
            }
            else
            {
                FlushBurst();
                m_burstAt = Simulator::Now();
                m_burst = 1;
            }
        }
        m_highEnd = std::max(m_highEnd, end);
        CheckBbrState();
    }

    /// ns-3's own RTT sample, replicated: with timestamps, TcpSocketBase::CalculateRttSample
    /// takes now - TSecr on a millisecond clock (TcpOptionTS::ElapsedTimeFromTsValue, 1 us if
    /// zero) on every ACK that acknowledges new data. The "LastRTT" trace cannot be used for
    /// the mean: it is a TracedValue, which fires only when the sample differs from the last
    /// one, and on a wired path most successive millisecond samples are equal.
    void OnRx(Ptr<const Packet>, const TcpHeader& h, Ptr<const TcpSocketBase>)
    {
        if ((h.GetFlags() & TcpHeader::ACK) == 0)
        {
            return;
        }
        const uint32_t ack = h.GetAckNumber().GetValue();
        const bool advances = !m_anyAck || ack > m_highAck;
        m_anyAck = true;
        m_highAck = std::max(m_highAck, ack);
        if (!advances || !Measuring() || !h.HasOption(TcpOption::TS))
        {
            return;
        }
        auto ts = DynamicCast<const TcpOptionTS>(h.GetOption(TcpOption::TS));
        Time rtt = TcpOptionTS::ElapsedTimeFromTsValue(ts->GetEcho());
        if (rtt.IsZero())
        {
            rtt = MicroSeconds(1);
        }
        m_rttSamples++;
        m_rttSumS += rtt.GetSeconds();
        if (SeriesEnabled())
        {
            m_rttValues.push_back(rtt.GetSeconds());
        }
    }

    /// One ReTxTimeout() with data outstanding doubles m_rto (RFC 6298 5.5, capped at 60 s);
    /// every other update of m_rto comes from an RTT estimate. The CongState trace cannot
    /// count timeouts: a second RTO in CA_LOSS changes no state.
    void OnRto(Time oldRto, Time newRto)
    {
        const Time doubled = Min(oldRto + oldRto, Seconds(60));
        if (newRto > oldRto && newRto == doubled && Measuring())
        {
            m_rtoExpiries++;
        }
    }

    void OnCongState(TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
    {
        m_congState = now;
        if (!Measuring())
        {
            return;
        }
        if (now == TcpSocketState::CA_LOSS)
        {
            m_lossEntries++;
        }
        else if (now == TcpSocketState::CA_RECOVERY)
        {
            m_recoveries++;
        }
    }

    void OnLastRtt(Time, Time rtt)
    {
        m_lastRtt = rtt;
        if (Measuring() && rtt.IsStrictlyPositive())
        {
            m_lastRttEvents++;
            m_lastRttSumS += rtt.GetSeconds();
        }
    }

    void Accumulate(Time now, uint32_t cwnd)
    {
        const Time from = std::max(m_cwndSince, m_warmup);
        if (now > from)
        {
            m_cwndArea += (now - from).GetSeconds() * static_cast<double>(cwnd) / m_mss;
        }
        m_cwndSince = now;
    }

    void OnCwnd(uint32_t oldCwnd, uint32_t cwnd)
    {
        Accumulate(Simulator::Now(), oldCwnd);
        m_cwnd = cwnd;
        if (!SeriesEnabled())
        {
            return;
        }
        CheckBbrState();
        if (Simulator::Now() >= DipsAfter())
        {
            if (!m_dipWatch) // the socket was hooked after DipsAfter()
            {
                m_dipWatch = true;
                m_minCwndAfter = oldCwnd;
            }
            m_minCwndAfter = std::min(m_minCwndAfter, cwnd);
            // One dip per episode: in ProbeRTT each ACK raises cwnd (TcpBbr::SetCwnd) and
            // caps it again at 4 segments (ModulateCwndForProbeRTT), two trace events per ACK.
            // A fall within DipMerge() of the last time cwnd was that low is the same dip.
            const uint32_t dip = kDipSegments * m_mss;
            const Time now = Simulator::Now();
            if (oldCwnd > dip && cwnd <= dip && (!m_wasLow || now - m_lastLow > DipMerge()))
            {
                m_dips.push_back(now.GetSeconds());
            }
            if (oldCwnd <= dip || cwnd <= dip)
            {
                m_wasLow = true;
                m_lastLow = now;
            }
        }
    }

    void OnSsthresh(uint32_t, uint32_t ssthresh)
    {
        m_ssthresh = ssthresh;
    }

    void OnSinkRx(Ptr<const Packet> p, const Address&)
    {
        m_rxBytesTotal += p->GetSize();
        if (Measuring())
        {
            m_rxBytes += p->GetSize();
        }
    }

    uint32_t m_mss{1};
    Time m_warmup;
    Time m_end;
    Ptr<BulkSendApplication> m_bulk;
    Ptr<TcpSocketBase> m_socket;
    uint64_t m_rxBytes{0};
    uint64_t m_rxBytesTotal{0};
    uint64_t m_segmentsSent{0};
    uint64_t m_retransmissions{0};
    uint64_t m_retxBySeq{0};
    uint64_t m_retxInLoss{0};
    uint64_t m_retxInRecovery{0};
    uint64_t m_retxRepeated{0};
    std::map<uint32_t, uint32_t> m_retransmittedSeqs;
    Time m_burstAt{Seconds(-1)};
    uint32_t m_burst{0};
    std::map<uint32_t, uint64_t> m_bursts; ///< burst size -> count
    TcpSocketState::TcpCongState_t m_congState{TcpSocketState::CA_OPEN};
    uint64_t m_highEnd{0};
    uint64_t m_rtoExpiries{0};
    uint64_t m_lossEntries{0};
    uint64_t m_recoveries{0};
    bool m_anyAck{false};
    uint32_t m_highAck{0};
    uint64_t m_rttSamples{0};
    double m_rttSumS{0};
    uint64_t m_lastRttEvents{0};
    double m_lastRttSumS{0};
    uint32_t m_cwnd{0};
    uint32_t m_ssthresh{0};
    Time m_cwndSince;
    double m_cwndArea{0};
    // --seriesMs
    Time m_seriesInterval;
    Time m_lastRtt;
    double m_pacingBps{0};
    Time m_pacingSince;
    double m_pacingArea{0};
    std::vector<double> m_rttValues;
    Ptr<TcpBbr> m_bbr;
    uint32_t m_bbrState{0};
    bool m_dipWatch{false};
    bool m_wasLow{false};
    Time m_lastLow;
    uint32_t m_minCwndAfter{0};
    std::vector<double> m_dips;
    std::vector<double> m_probeRttEntries;
    std::vector<double> m_sT;
    std::vector<uint32_t> m_sCwnd;
    std::vector<double> m_sPacing;
    std::vector<double> m_sRtt;
    std::vector<uint64_t> m_sRx;
    std::vector<uint32_t> m_sState;
};

/// Drops of one device: its DropTailQueue "Drop" (full queue) and its PhyRxDrop (error model).
struct DeviceDrops
{
    uint64_t queue{0};
    uint64_t errorModel{0};
    Time warmup;

    void Attach(Ptr<PointToPointNetDevice> dev)
    {
        dev->GetQueue()->TraceConnectWithoutContext("Drop",
                                                    MakeCallback(&DeviceDrops::OnQueueDrop, this));
        dev->TraceConnectWithoutContext("PhyRxDrop", MakeCallback(&DeviceDrops::OnRxDrop, this));
    }

    void OnQueueDrop(Ptr<const Packet>)
    {
        if (Simulator::Now() >= warmup)
        {
            queue++;
        }
    }

    void OnRxDrop(Ptr<const Packet>)
    {
        if (Simulator::Now() >= warmup)
        {
            errorModel++;
        }
    }
};

Ptr<RateErrorModel>
PacketLoss(double rate, int64_t stream)
{
    auto em = CreateObject<RateErrorModel>();
    em->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
    em->SetRate(rate);
    em->AssignStreams(stream);
    return em;
}

} // namespace

int
main(int argc, char* argv[])
{
    double rateMbps = 5;
    double delayMs = 10;
    uint32_t queuePackets = 2;
    double loss = 0;
    double reverseLoss = 0;
    double accessRateMbps = 1000;
    double accessDelayMs = 0;
    uint32_t accessQueuePackets = 1000;
    double durationS = 30;
    double warmupS = 0;
    double startS = 0;
    uint32_t seed = 1;
    uint32_t run = 1;
    double seriesMs = 0;

    TcpArgs t;
    // airtcp's [tcp] defaults and examples/wired-bottleneck.toml, not tcp_common.h's.
    t.cc = "cubic";
    t.recovery = "prr";
    t.sack = true;
    t.sndBuf = 4194304;
    t.rcvBuf = 6291456;

    CommandLine cmd(__FILE__);
    cmd.AddValue("rateMbps", "bottleneck rate router <-> receiver (Mbit/s)", rateMbps);
    cmd.AddValue("delayMs", "bottleneck one-way propagation delay (ms)", delayMs);
    cmd.AddValue("queuePackets",
                 "bottleneck DropTailQueue MaxSize at each end (packets waiting)",
                 queuePackets);
    cmd.AddValue("loss", "random packet loss router -> receiver (0..1)", loss);
    cmd.AddValue("reverseLoss", "random packet loss receiver -> router (0..1)", reverseLoss);
    cmd.AddValue("accessRateMbps", "sender <-> router rate (Mbit/s)", accessRateMbps);
    cmd.AddValue("accessDelayMs", "sender <-> router one-way delay (ms)", accessDelayMs);
    cmd.AddValue("accessQueuePackets", "sender <-> router queue (packets)", accessQueuePackets);
    cmd.AddValue("durationS", "simulated time (s)", durationS);
    cmd.AddValue("warmupS", "counting starts at this time (s)", warmupS);
    cmd.AddValue("startS", "time the bulk sender opens its connection (s)", startS);
    cmd.AddValue("seed", "RngSeedManager seed", seed);
    cmd.AddValue("run", "RngSeedManager run number", run);
    cmd.AddValue("seriesMs",
                 "sample cwnd, pacing rate, last RTT and received bytes every N ms of simulated "
                 "time into the JSON key \"series\" (0 = off)",
                 seriesMs);
    t.Register(cmd);
    cmd.Parse(argc, argv);
    t.Validate();
    NS_ABORT_MSG_IF(rateMbps <= 0 || accessRateMbps <= 0, "rates must be > 0");
    NS_ABORT_MSG_IF(delayMs < 0 || accessDelayMs < 0, "delays must be >= 0");
    NS_ABORT_MSG_IF(queuePackets < 1 || accessQueuePackets < 1, "queues must be >= 1 packet");
    NS_ABORT_MSG_IF(loss < 0 || loss >= 1 || reverseLoss < 0 || reverseLoss >= 1,
                    "--loss and --reverseLoss must be in [0, 1)");
    NS_ABORT_MSG_IF(warmupS < 0 || warmupS >= durationS, "--warmupS must be in [0, durationS)");
    NS_ABORT_MSG_IF(startS < 0 || startS >= durationS, "--startS out of range");
    NS_ABORT_MSG_IF(seriesMs < 0, "--seriesMs must be >= 0");

    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(run);
    t.Apply(); // before the internet stack is installed

    NodeContainer nodes;
    nodes.Create(3); // 0 sender, 1 router, 2 receiver

    const uint32_t mtu = std::max<uint32_t>(1500, t.mss + 80);
    auto link = [mtu](double mbps, double ms, uint32_t queue) {
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute(
            "DataRate",
            DataRateValue(DataRate(static_cast<uint64_t>(std::llround(mbps * 1e6)))));
        p2p.SetDeviceAttribute("Mtu", UintegerValue(mtu));
        p2p.SetChannelAttribute("Delay", TimeValue(NanoSeconds(std::llround(ms * 1e6))));
        p2p.SetQueue("ns3::DropTailQueue<Packet>",
                     "MaxSize",
                     QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, queue)));
        p2p.DisableFlowControl(); // no NetDeviceQueueInterface -> no default queue disc
        return p2p;
    };
    NetDeviceContainer access =
        link(accessRateMbps, accessDelayMs, accessQueuePackets).Install(nodes.Get(0), nodes.Get(1));
    NetDeviceContainer bottleneck =
        link(rateMbps, delayMs, queuePackets).Install(nodes.Get(1), nodes.Get(2));

    // Random loss, drawn per packet at the far end of each bottleneck direction.
    if (loss > 0)
    {
        bottleneck.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(PacketLoss(loss, 0)));
    }
    if (reverseLoss > 0)
    {
        bottleneck.Get(0)->SetAttribute("ReceiveErrorModel",
                                        PointerValue(PacketLoss(reverseLoss, 1)));
    }

    InternetStackHelper stack;
    stack.SetIpv6StackInstall(false);
    stack.Install(nodes);
    Ipv4AddressHelper addr;
    addr.SetBase("10.0.1.0", "255.255.255.0");
    addr.Assign(access);
    addr.SetBase("10.0.2.0", "255.255.255.0");
    Ipv4InterfaceContainer bIfs = addr.Assign(bottleneck);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    NeighborCacheHelper nch;
    nch.PopulateNeighborCache(); // permanent ARP entries: no ARP exchange

    // The device queues must be the only queues.
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        auto tc = nodes.Get(i)->GetObject<TrafficControlLayer>();
        for (uint32_t d = 0; d < nodes.Get(i)->GetNDevices(); ++d)
        {
            auto dev = nodes.Get(i)->GetDevice(d);
            NS_ABORT_MSG_IF(tc && tc->GetRootQueueDiscOnDevice(dev),
                            "a queue disc is installed on node " << i << " device " << d);
        }
    }

    // One per device, named by the node it sits on and its link.
    DeviceDrops senderAccess;
    DeviceDrops routerAccess;
    DeviceDrops routerBottleneck;
    DeviceDrops receiverBottleneck;
    const Time warmup = Seconds(warmupS);
    for (auto* dd : {&senderAccess, &routerAccess, &routerBottleneck, &receiverBottleneck})
    {
        dd->warmup = warmup;
    }
    senderAccess.Attach(DynamicCast<PointToPointNetDevice>(access.Get(0)));
    routerAccess.Attach(DynamicCast<PointToPointNetDevice>(access.Get(1)));
    routerBottleneck.Attach(DynamicCast<PointToPointNetDevice>(bottleneck.Get(0)));
    receiverBottleneck.Attach(DynamicCast<PointToPointNetDevice>(bottleneck.Get(1)));

    const uint16_t port = 5001;
    const Time start = Seconds(startS);
    auto [bulk, sink] = InstallBulkFlow(nodes.Get(0),
                                        nodes.Get(2),
                                        bIfs.GetAddress(1),
                                        port,
                                        t.mss,
                                        start,
                                        Seconds(durationS));
    WiredFlowStats flow;
    flow.Attach(bulk, sink, t.mss, start, warmup, Seconds(durationS));
    if (seriesMs > 0)
    {
        flow.EnableSeries(MicroSeconds(std::llround(seriesMs * 1e3)));
    }

    std::ostringstream seriesEcho;
    seriesEcho << seriesMs;
    const double wall = TimedRun(durationS);
    const uint64_t events = Simulator::GetEventCount();
    flow.Finish();

    std::cout << std::setprecision(10) << "{" << flow.Json()
              << (flow.SeriesEnabled() ? flow.SeriesJson() : std::string())
              << ", \"events\": " << events
              << ", \"wall_seconds\": " << wall << ", \"queue_drops\": {\"bottleneck_fwd\": "
              << routerBottleneck.queue << ", \"bottleneck_rev\": " << receiverBottleneck.queue
              << ", \"access_fwd\": " << senderAccess.queue
              << ", \"access_rev\": " << routerAccess.queue
              << "}, \"random_losses\": {\"fwd\": " << receiverBottleneck.errorModel
              << ", \"rev\": " << routerBottleneck.errorModel << "}, \"config\": {\"rate_mbps\": "
              << rateMbps << ", \"delay_ms\": " << delayMs << ", \"queue_packets\": "
              << queuePackets << ", \"loss\": " << loss << ", \"reverse_loss\": " << reverseLoss
              << ", \"access_rate_mbps\": " << accessRateMbps
              << ", \"access_delay_ms\": " << accessDelayMs
              << ", \"access_queue_packets\": " << accessQueuePackets << ", \"mtu\": " << mtu
              << ", \"duration_s\": " << durationS << ", \"warmup_s\": " << warmupS
              << ", \"start_s\": " << startS << ", \"seed\": " << seed << ", \"run\": " << run
              << (seriesMs > 0 ? ", \"series_ms\": " + seriesEcho.str() : std::string())
              << "}, \"tcp_config\": " << t.Json() << "}" << std::endl;

    Simulator::Destroy();
    return 0;
}
