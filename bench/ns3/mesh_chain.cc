// mesh_chain.cc -- ns-3 3.44 reference for airtcp's 802.11s mesh (docs/mesh.md): k-hop chain of
// mesh points n0 - n1 - ... - nk, each hearing only its neighbours, one flow n0 -> nk routed by
// ns-3's Dot11s stack (peer management + HWMP) instead of static routes.
//
// Set-up (NOTES.md, section "802.11s mesh"):
//  * MeshHelper with ns3::Dot11sStack, one interface per node on one channel (ZERO_CHANNEL
//    policy, as mesh-example.cc --channels=0), ns-3's default HWMP and peer-link attributes
//    (they are not Linux's: printed in the JSON "mesh_defaults" object).
//  * Channel: RangePropagationLossModel (--rangeM, default 15 m): a node 10 m away receives at
//    the transmit power, one 20 m away at -1000 dBm, i.e. neither decodes nor senses it (hidden
//    nodes). ConstantSpeedPropagationDelayModel. This is airtcp's range model with
//    rx_range_m = cs_range_m = 15.
//  * 802.11g (ERP-OFDM) with a 9 us slot (mesh points are not associated to an AP, so ns-3 keeps
//    the long slot unless it is set: same as common.h's ad hoc programs), data at a constant
//    --dataRateMbps (ConstantRateWifiManager). The mesh MAC is a QoS MAC (MeshHelper forces
//    QosSupported): data go in AC_BE (AIFSN 3, CWmin 15).
//  * Basic rate set pinned to {DSSS 1, --basicRateMbps}: ACKs of data frames at --basicRateMbps
//    (GetControlAnswerMode), management frames (Beacons, peering, HWMP) at GetBasicMode(0) =
//    1 Mbit/s with the long preamble. Without the pin ns-3 would ACK 54 Mbit/s data at 24 and
//    still send management frames at 1 Mbit/s (GetDefaultMode), see NOTES.md (a).
//  * Static ARP entries (mesh point addresses), IPv4 only; the MeshPointDevice has no
//    NetDeviceQueueInterface, so no queue disc is installed and IP hands packets straight to
//    HWMP, which enqueues them synchronously in the interface's AC_BE WifiMacQueue
//    (--queuePackets, no lifetime limit as in common.h).
//
// Traffic (--traffic): cbr (UDP constant bit rate --rateMbps of --payloadBytes payloads),
// saturating (UDP; n0's AC_BE queue kept at --queuePackets MPDUs) or tcp (one bulk flow,
// tcp_common.h). Every source starts at --startS; counting starts at --warmupS.
//
// Example:
//   ./mesh_chain --hops=3 --traffic=cbr --rateMbps=2 --durationS=22 --warmupS=2 --startS=1

#include "tcp_common.h"

#include "ns3/fcfs-wifi-queue-scheduler.h"
#include "ns3/mesh-module.h"
#include "ns3/wifi-default-ack-manager.h"
#include "ns3/wifi-default-protection-manager.h"

#include <regex>

using namespace ns3;
using namespace airtcp_bench;

namespace
{

/// Per-node counters (index = node), whole run unless noted.
struct NodeStats
{
    uint64_t dataAttempts{0};      ///< data PSDUs sent (after warmup)
    uint64_t dataFailures{0};      ///< MacTxDataFailed (after warmup)
    uint64_t retryDrops{0};        ///< MacTxFinalDataFailed (after warmup)
    uint64_t queueDrops{0};        ///< DroppedMpdu FAILED_ENQUEUE (after warmup)
    std::map<std::string, uint64_t> frames; ///< "TYPE@mode/bytes" -> count (whole run)
    std::vector<std::pair<double, std::string>> linkEvents; ///< (time, "open|close peer")
    std::vector<double> discoveryMs; ///< HwmpProtocol RouteDiscoveryTime values
    std::vector<double> discoveryAtS; ///< ... and when they were reported
};

std::vector<NodeStats> g_nodes;
std::map<Mac48Address, uint32_t> g_nodeOfAddr;

std::string
NodeName(Mac48Address a)
{
    auto it = g_nodeOfAddr.find(a);
    return it == g_nodeOfAddr.end() ? "?" : "n" + std::to_string(it->second);
}

/// Frame type of a transmitted PSDU, management frames by category/action/first IE.
std::string
FrameType(Ptr<const WifiPsdu> psdu)
{
    const WifiMacHeader& hdr = psdu->GetHeader(0);
    if (hdr.IsQosData() || hdr.IsData())
    {
        return hdr.GetAddr1().IsGroup() ? "DATA_GROUP" : "DATA";
    }
    if (hdr.IsBeacon())
    {
        return "BEACON";
    }
    if (hdr.IsAck())
    {
        return "ACK";
    }
    if (hdr.IsAction())
    {
        // Action body: category (13 Mesh, 15 Self-protected), action, then the elements.
        Ptr<Packet> p = psdu->GetPayload(0)->Copy();
        uint8_t b[3] = {0, 0, 0};
        p->CopyData(b, std::min<uint32_t>(3, p->GetSize()));
        if (b[0] == 15)
        {
            return b[1] == 1 ? "PEER_OPEN" : b[1] == 2 ? "PEER_CONFIRM" : b[1] == 3 ? "PEER_CLOSE"
                                                                                    : "SELF_PROT";
        }
        if (b[0] == 13)
        {
            return b[2] == 130 ? "PREQ" : b[2] == 131 ? "PREP" : b[2] == 132 ? "PERR" : "MESH_ACT";
        }
        return "ACTION_" + std::to_string(b[0]);
    }
    return std::string("OTHER_") + hdr.GetTypeString();
}

void
OnMeshPsduTx(uint32_t node, WifiConstPsduMap psduMap, WifiTxVector txVector, double /*w*/)
{
    for (const auto& [staId, psdu] : psduMap)
    {
        const std::string type = FrameType(psdu);
        std::ostringstream key;
        key << type << "@" << txVector.GetMode().GetUniqueName() << "/" << psdu->GetSize();
        g_nodes[node].frames[key.str()]++;
        if (type == "DATA" && InWindow())
        {
            g_nodes[node].dataAttempts++;
        }
    }
}

void
OnNodeTxDataFailed(uint32_t node, Mac48Address)
{
    if (InWindow())
    {
        g_nodes[node].dataFailures++;
    }
}

void
OnNodeTxFinalDataFailed(uint32_t node, Mac48Address)
{
    if (InWindow())
    {
        g_nodes[node].retryDrops++;
    }
}

void
OnNodeMacDrop(uint32_t node, WifiMacDropReason reason, Ptr<const WifiMpdu>)
{
    if (reason == WIFI_MAC_DROP_FAILED_ENQUEUE && InWindow())
    {
        g_nodes[node].queueDrops++;
    }
}

void
OnLinkOpen(uint32_t node, Mac48Address, Mac48Address peer)
{
    g_nodes[node].linkEvents.emplace_back(Simulator::Now().GetSeconds(), "open " + NodeName(peer));
}

void
OnLinkClose(uint32_t node, Mac48Address, Mac48Address peer)
{
    g_nodes[node].linkEvents.emplace_back(Simulator::Now().GetSeconds(),
                                          "close " + NodeName(peer));
}

void
OnRouteDiscoveryTime(uint32_t node, Time t)
{
    g_nodes[node].discoveryMs.push_back(t.GetSeconds() * 1e3);
    g_nodes[node].discoveryAtS.push_back(Simulator::Now().GetSeconds());
}

/// UDP constant bit rate source: one --payloadBytes datagram every payload*8/rate seconds.
class CbrSender : public Application
{
  public:
    void Setup(Address dest, uint32_t payload, double rateBps)
    {
        m_dest = dest;
        m_payload = payload;
        m_interval = Seconds(payload * 8.0 / rateBps);
    }

    uint64_t m_sent{0};
    uint64_t m_sentInWindow{0};

  private:
    void StartApplication() override
    {
        m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
        m_socket->Bind();
        m_socket->Connect(m_dest);
        SendOne();
    }

    void StopApplication() override
    {
        m_event.Cancel();
    }

    void SendOne()
    {
        m_socket->Send(Create<Packet>(m_payload));
        m_sent++;
        if (InWindow())
        {
            m_sentInWindow++;
        }
        m_event = Simulator::Schedule(m_interval, &CbrSender::SendOne, this);
    }

    Ptr<Socket> m_socket;
    Address m_dest;
    uint32_t m_payload{0};
    Time m_interval;
    EventId m_event;
};

/**
 * Saturating UDP source for a mesh point: keeps the AC_BE WifiMacQueue of its (only) interface at
 * `backlog` MPDUs, refilling on the interface MAC's AckedMpdu/DroppedMpdu (as common.h's
 * SaturatingSender). A datagram that does not reach that queue is held by HWMP (no path yet:
 * HwmpProtocol queue, 255 packets) or dropped; the sender then retries every millisecond
 * instead of spinning.
 */
class MeshSaturatingSender : public Application
{
  public:
    void Setup(Address dest, uint32_t payload, Ptr<WifiNetDevice> iface, uint32_t backlog)
    {
        m_dest = dest;
        m_payload = payload;
        m_queue = iface->GetMac()->GetQosTxop(AC_BE)->GetWifiMacQueue();
        m_backlog = backlog;
        iface->GetMac()->TraceConnectWithoutContext(
            "AckedMpdu",
            MakeCallback(&MeshSaturatingSender::Trigger, this));
        iface->GetMac()->TraceConnectWithoutContext(
            "DroppedMpdu",
            MakeCallback(&MeshSaturatingSender::TriggerDrop, this));
    }

    uint64_t m_sent{0};

  private:
    void Trigger(Ptr<const WifiMpdu>)
    {
        Simulator::ScheduleNow(&MeshSaturatingSender::Refill, this);
    }

    void TriggerDrop(WifiMacDropReason, Ptr<const WifiMpdu> m)
    {
        Trigger(m);
    }

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
        m_retry.Cancel();
    }

    void Refill()
    {
        if (!m_running)
        {
            return;
        }
        while (m_queue->GetNPackets() < m_backlog)
        {
            const auto before = m_queue->GetNPackets();
            m_socket->Send(Create<Packet>(m_payload));
            m_sent++;
            if (m_queue->GetNPackets() <= before)
            {
                // held by HWMP (path discovery) or dropped: try again later
                if (!m_retry.IsPending())
                {
                    m_retry = Simulator::Schedule(MilliSeconds(1), &MeshSaturatingSender::Refill,
                                                  this);
                }
                break;
            }
        }
    }

    Ptr<Socket> m_socket;
    Address m_dest;
    uint32_t m_payload{0};
    Ptr<WifiMacQueue> m_queue;
    uint32_t m_backlog{1};
    bool m_running{false};
    EventId m_retry;
};

std::string
JsonDoubles(const std::vector<double>& v)
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

/// key="value" pairs of the first <Statistics .../> line of an ns-3 Report() as JSON.
std::string
JsonReportStats(const std::string& report)
{
    std::ostringstream os;
    os << "{";
    const auto start = report.find("<Statistics ");
    if (start != std::string::npos)
    {
        const std::string line = report.substr(start, report.find("/>", start) - start);
        std::regex kv("(\\w+)=\"([^\"]*)\"");
        bool first = true;
        for (auto it = std::sregex_iterator(line.begin(), line.end(), kv);
             it != std::sregex_iterator();
             ++it)
        {
            os << (first ? "" : ", ") << "\"" << (*it)[1] << "\": " << (*it)[2];
            first = false;
        }
    }
    os << "}";
    return os.str();
}

/// The value of an attribute of an object as a string (for the "mesh_defaults" echo).
std::string
Attr(Ptr<Object> o, const std::string& name)
{
    const TypeId tid = o->GetInstanceTypeId();
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_IF(!tid.LookupAttributeByName(name, &info), "no attribute " << name);
    auto v = info.checker->Create();
    o->GetAttribute(name, *v);
    return v->SerializeToString(info.checker);
}


/**
 * MeshHelper::Install() with SetStackInstaller("ns3::Dot11sStack"), SetNumberOfInterfaces(1) and
 * SetSpreadInterfaceChannels(ZERO_CHANNEL), re-implemented because MeshHelper::CreateInterface()
 * (mesh-helper.cc:103-150) always switches the interface to channel 100 (ZERO_CHANNEL) or
 * 100 + 5i (SPREAD_CHANNELS). That exists only in the 5 GHz band: with SetStandard(802.11g) the
 * PHY throws "WifiPhyOperatingChannel: No unique channel found". Here the channel is 100 in
 * 5 GHz (as the helper) and 1 in 2.4 GHz; everything else is CreateInterface() line by line.
 */
NetDeviceContainer
InstallMesh(const WifiPhyHelper& phyHelper,
            const NodeContainer& nodes,
            WifiStandard standard,
            ObjectFactory macFactory,
            const ObjectFactory& rsmFactory)
{
    ObjectFactory stackFactory;
    stackFactory.SetTypeId("ns3::Dot11sStack");
    Ptr<MeshStack> stack = stackFactory.Create<MeshStack>();
    macFactory.Set("QosSupported", BooleanValue(true)); // a mesh station is a QoS station
    NetDeviceContainer devices;
    for (auto n = nodes.Begin(); n != nodes.End(); ++n)
    {
        Ptr<Node> node = *n;
        Ptr<MeshPointDevice> mp = CreateObject<MeshPointDevice>();
        node->AddDevice(mp);
        // --- MeshHelper::CreateInterface
        Ptr<WifiNetDevice> device = CreateObject<WifiNetDevice>();
        for (const std::string ac : {"BE", "BK", "VI", "VO"})
        {
            auto qosTxop = CreateObjectWithAttributes<QosTxop>("AcIndex",
                                                               StringValue(std::string("AC_") + ac));
            macFactory.Set(ac + "_Txop", PointerValue(qosTxop));
        }
        std::vector<Ptr<WifiPhy>> phys = phyHelper.Create(node, device);
        NS_ABORT_IF(phys.size() != 1);
        node->AddDevice(device);
        phys[0]->ConfigureStandard(standard);
        device->SetPhy(phys[0]);
        Ptr<MeshWifiInterfaceMac> mac = macFactory.Create<MeshWifiInterfaceMac>();
        mac->SetSsid(Ssid());
        mac->SetDevice(device);
        device->SetRemoteStationManager(rsmFactory.Create<WifiRemoteStationManager>());
        mac->SetAddress(Mac48Address::Allocate());
        device->SetMac(mac);
        mac->SetMacQueueScheduler(CreateObject<FcfsWifiQueueScheduler>());
        mac->SetChannelAccessManagers({CreateObject<ChannelAccessManager>()});
        ObjectFactory femFactory;
        femFactory.SetTypeId(GetFrameExchangeManagerTypeIdName(standard, true));
        auto fem = femFactory.Create<FrameExchangeManager>();
        mac->SetFrameExchangeManagers({fem});
        fem->SetAddress(mac->GetAddress());
        auto protectionManager = CreateObject<WifiDefaultProtectionManager>();
        protectionManager->SetWifiMac(mac);
        fem->SetProtectionManager(protectionManager);
        auto ackManager = CreateObject<WifiDefaultAckManager>();
        ackManager->SetWifiMac(mac);
        fem->SetAckManager(ackManager);
        mac->SwitchFrequencyChannel(phys[0]->GetPhyBand() == WIFI_PHY_BAND_2_4GHZ ? 1 : 100);
        // --- back in MeshHelper::Install
        mp->AddInterface(device);
        NS_ABORT_MSG_IF(!stack->InstallStack(mp), "Dot11sStack not installed");
        devices.Add(mp);
    }
    return devices;
}
} // namespace

int
main(int argc, char* argv[])
{
    CommonArgs a;
    a.standard = "80211g";
    a.payloadBytes = 1472;
    a.qos = true; // the mesh MAC is always a QoS MAC
    TcpArgs t;
    uint32_t hops = 3;
    double spacingM = 10;
    double rangeM = 15;
    std::string traffic = "cbr";
    double rateMbps = 2;
    double startS = 1;
    CommandLine cmd(__FILE__);
    cmd.AddValue("hops", "number of hops k (mesh points n0..nk)", hops);
    cmd.AddValue("spacingM", "distance between neighbours (m)", spacingM);
    cmd.AddValue("rangeM", "RangePropagationLossModel::MaxRange (m)", rangeM);
    cmd.AddValue("traffic", "cbr | saturating | tcp", traffic);
    cmd.AddValue("rateMbps", "offered load of --traffic=cbr (payload bits, Mbit/s)", rateMbps);
    cmd.AddValue("startS", "time the source starts (s)", startS);
    a.Register(cmd);
    t.Register(cmd);
    cmd.Parse(argc, argv);
    NS_ABORT_MSG_IF(!a.qos, "the ns-3 mesh MAC is always QoS (--qos=1)");
    if (traffic == "tcp")
    {
        a.payloadBytes = t.mss; // echoed in the JSON config; the segment payload is --mss
    }
    a.Validate();
    t.Validate();
    NS_ABORT_MSG_IF(hops < 1, "--hops must be >= 1");
    NS_ABORT_MSG_IF(traffic != "cbr" && traffic != "saturating" && traffic != "tcp",
                    "--traffic must be cbr, saturating or tcp");
    NS_ABORT_MSG_IF(a.standard == "80211b", "mesh_chain supports 80211a and 80211g");
    NS_ABORT_MSG_IF(a.phyModel != "yans", "mesh_chain supports --phyModel=yans only");
    NS_ABORT_MSG_IF(startS < 0 || startS >= a.durationS, "--startS out of range");

    RngSeedManager::SetSeed(a.seed);
    RngSeedManager::SetRun(a.run);
    g_stats.warmup = Seconds(a.warmupS);
    if (traffic == "tcp")
    {
        t.Apply(); // before the internet stack is installed
    }

    // --- WifiMacQueue: --queuePackets, no lifetime limit (as common.h BuildWifi).
    Config::SetDefault("ns3::WifiMacQueue::MaxSize",
                       QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, a.queuePackets)));
    Config::SetDefault("ns3::WifiMacQueue::MaxDelay", TimeValue(Seconds(1e6)));

    NodeContainer nodes;
    nodes.Create(hops + 1);
    g_nodes.resize(hops + 1);

    // n0..nk on the x axis, --spacingM apart.
    MobilityHelper mobility;
    mobility.SetPositionAllocator("ns3::GridPositionAllocator",
                                  "MinX",
                                  DoubleValue(0.0),
                                  "MinY",
                                  DoubleValue(0.0),
                                  "DeltaX",
                                  DoubleValue(spacingM),
                                  "DeltaY",
                                  DoubleValue(spacingM),
                                  "GridWidth",
                                  UintegerValue(hops + 1),
                                  "LayoutType",
                                  StringValue("RowFirst"));
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel");
    mobility.Install(nodes);

    // --- channel: neighbours only (range model), see header comment.
    auto channel = CreateObject<YansWifiChannel>();
    auto loss = CreateObject<RangePropagationLossModel>();
    loss->SetAttribute("MaxRange", DoubleValue(rangeM));
    channel->SetPropagationLossModel(loss);
    channel->SetPropagationDelayModel(CreateObject<ConstantSpeedPropagationDelayModel>());
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

    // --- mesh: Dot11s stack with its default HWMP / peer management attributes, one interface
    //     per mesh point, no rate adaptation (mesh-example.cc without MeshHelper::Default()'s
    //     ArfWifiManager and channel spreading). Built by InstallMesh() = MeshHelper::Install()
    //     with a channel that exists in the standard's band (see there).
    const std::string dataMode = ModeName(a.standard, a.dataRateMbps);
    const std::string basicMode = ModeName(a.standard, a.basicRateMbps);
    ObjectFactory macFactory;
    macFactory.SetTypeId("ns3::MeshWifiInterfaceMac");
    // FrameRetryLimit = attempts (common.h): --retryLimit retransmissions.
    macFactory.Set("FrameRetryLimit", UintegerValue(a.retryLimit + 1));
    ObjectFactory rsmFactory;
    rsmFactory.SetTypeId("ns3::ConstantRateWifiManager");
    rsmFactory.Set("DataMode",
                   StringValue(dataMode),
                   "ControlMode",
                   StringValue(basicMode),
                   "NonUnicastMode",
                   StringValue(basicMode),
                   "RtsCtsThreshold",
                   UintegerValue(4692480), // never RTS/CTS
                   "FragmentationThreshold",
                   UintegerValue(65535)); // never fragment
    const WifiStandard standard =
        a.standard == "80211a" ? WIFI_STANDARD_80211a : WIFI_STANDARD_80211g;
    NetDeviceContainer mps = InstallMesh(phy, nodes, standard, macFactory, rsmFactory);
    MeshHelper mesh;
    mesh.AssignStreams(mps, 0); // only needs the devices

    std::vector<Ptr<WifiNetDevice>> ifaces;
    for (uint32_t i = 0; i < mps.GetN(); ++i)
    {
        auto mp = DynamicCast<MeshPointDevice>(mps.Get(i));
        NS_ABORT_MSG_IF(mp->GetInterfaces().size() != 1, "one interface per mesh point expected");
        auto dev = DynamicCast<WifiNetDevice>(mp->GetInterfaces()[0]);
        ifaces.push_back(dev);
        g_nodeOfAddr[Mac48Address::ConvertFrom(dev->GetAddress())] = i;
    }

    const WifiMode lowest = ifaces[0]->GetPhy()->GetDefaultMode(); // DSSS 1 (g), OFDM 6 (a)
    const WifiMode basic(basicMode);
    for (uint32_t i = 0; i < ifaces.size(); ++i)
    {
        auto dev = ifaces[i];
        auto wphy = dev->GetPhy();
        auto wmac = dev->GetMac();
        auto rsm = dev->GetRemoteStationManager();
        // --- slot time (see common.h BuildWifi): 9 us pure ERP, 20 us and CWmin 31 mixed.
        if (a.standard == "80211g")
        {
            if (a.erpMixed)
            {
                wphy->SetSlot(MicroSeconds(20));
                wmac->GetQosTxop(AC_BE)->SetMinCw(31, 0);
            }
            else
            {
                wphy->SetSlot(MicroSeconds(9));
            }
        }
        rsm->SetShortPreambleEnabled(a.shortPreamble);
        // --- basic rate set {lowest, --basicRateMbps}: management frames at the lowest rate
        //     (GetBasicMode(0)), ACKs of data at --basicRateMbps (see header comment).
        rsm->AddBasicMode(lowest);
        if (basic != lowest)
        {
            rsm->AddBasicMode(basic);
        }
        // --- traces
        wphy->TraceConnectWithoutContext("PhyTxPsduBegin", MakeBoundCallback(&OnPsduTxBegin, wphy));
        wphy->TraceConnectWithoutContext("PhyTxPsduBegin", MakeBoundCallback(&OnMeshPsduTx, i));
        wphy->TraceConnectWithoutContext("PhyRxDrop", MakeCallback(&OnPhyRxDrop));
        wphy->GetState()->TraceConnectWithoutContext("RxError", MakeCallback(&OnPhyRxError));
        rsm->TraceConnectWithoutContext("MacTxDataFailed", MakeCallback(&OnMacTxDataFailed));
        rsm->TraceConnectWithoutContext("MacTxFinalDataFailed",
                                        MakeCallback(&OnMacTxFinalDataFailed));
        rsm->TraceConnectWithoutContext("MacTxDataFailed",
                                        MakeBoundCallback(&OnNodeTxDataFailed, i));
        rsm->TraceConnectWithoutContext("MacTxFinalDataFailed",
                                        MakeBoundCallback(&OnNodeTxFinalDataFailed, i));
        wmac->TraceConnectWithoutContext("DroppedMpdu", MakeCallback(&OnMacDrop));
        wmac->TraceConnectWithoutContext("DroppedMpdu", MakeBoundCallback(&OnNodeMacDrop, i));
        auto pmp = mps.Get(i)->GetObject<dot11s::PeerManagementProtocol>();
        pmp->TraceConnectWithoutContext("LinkOpen", MakeBoundCallback(&OnLinkOpen, i));
        pmp->TraceConnectWithoutContext("LinkClose", MakeBoundCallback(&OnLinkClose, i));
        auto hwmp = mps.Get(i)->GetObject<dot11s::HwmpProtocol>();
        hwmp->TraceConnectWithoutContext("RouteDiscoveryTime",
                                         MakeBoundCallback(&OnRouteDiscoveryTime, i));
    }

    // --- IPv4 on the mesh point devices. The MeshPointDevice has no NetDeviceQueueInterface, so
    //     Ipv4AddressHelper::Assign installs no queue disc. Static ARP: every mesh point address.
    InternetStackHelper stack;
    stack.SetIpv6StackInstall(false);
    stack.Install(nodes);
    Ipv4AddressHelper addr("10.0.0.0", "255.255.255.0");
    Ipv4InterfaceContainer ifs = addr.Assign(mps);
    for (uint32_t i = 0; i < nodes.GetN(); ++i)
    {
        auto tc = nodes.Get(i)->GetObject<TrafficControlLayer>();
        NS_ABORT_MSG_IF(tc->GetRootQueueDiscOnDevice(mps.Get(i)), "unexpected queue disc");
        tc->TraceConnectWithoutContext("TcDrop", MakeCallback(&OnTcDrop));
        auto ipv4 = nodes.Get(i)->GetObject<Ipv4L3Protocol>();
        auto arp = ipv4->GetInterface(ifs.Get(i).second)->GetArpCache();
        for (uint32_t j = 0; j < nodes.GetN(); ++j)
        {
            if (j != i)
            {
                auto entry = arp->Add(ifs.GetAddress(j));
                entry->SetMacAddress(mps.Get(j)->GetAddress());
                entry->MarkPermanent();
            }
        }
    }
    if (traffic == "tcp")
    {
        CountTcDropsAfterWarmup(nodes);
    }

    // --- traffic n0 -> nk
    const Ipv4Address dst = ifs.GetAddress(hops);
    const Time start = Seconds(startS);
    const Time stop = Seconds(a.durationS);
    CountingSink sink;
    Ptr<CbrSender> cbr;
    Ptr<MeshSaturatingSender> sat;
    TcpFlowStats flow;
    if (traffic == "tcp")
    {
        auto [bulk, tcpSink] =
            InstallBulkFlow(nodes.Get(0), nodes.Get(hops), dst, 5001, t.mss, start, stop);
        flow.Attach(bulk, tcpSink, t.mss, start);
    }
    else
    {
        const uint16_t port = 9;
        sink.Install(nodes.Get(hops), port);
        if (traffic == "cbr")
        {
            cbr = CreateObject<CbrSender>();
            cbr->Setup(InetSocketAddress(dst, port), a.payloadBytes, rateMbps * 1e6);
            nodes.Get(0)->AddApplication(cbr);
            cbr->SetStartTime(start);
            cbr->SetStopTime(stop);
        }
        else
        {
            sat = CreateObject<MeshSaturatingSender>();
            sat->Setup(InetSocketAddress(dst, port), a.payloadBytes, ifaces[0], a.queuePackets);
            nodes.Get(0)->AddApplication(sat);
            sat->SetStartTime(start);
            sat->SetStopTime(stop);
        }
    }

    const double wall = TimedRun(a.durationS);
    const uint64_t events = Simulator::GetEventCount();
    if (traffic == "tcp")
    {
        flow.Finish();
    }

    const double window = a.durationS - a.warmupS;
    const uint64_t rxBytes = traffic == "tcp" ? flow.RxBytes() : sink.m_totalBytes;
    const double goodput = rxBytes * 8.0 / window;
    auto phy0 = ifaces[0]->GetPhy();
    std::ostringstream os;
    os << std::setprecision(10);
    os << JsonCommon(a, goodput, {goodput}, "per_flow_goodput_bps", wall, events, phy0)
       << ", \"hops\": " << hops << ", \"traffic\": \"" << traffic << "\""
       << ", \"rate_mbps\": " << rateMbps << ", \"start_s\": " << startS
       << ", \"spacing_m\": " << spacingM << ", \"range_m\": " << rangeM;
    if (cbr)
    {
        os << ", \"udp_sent_packets\": " << cbr->m_sent
           << ", \"udp_sent_packets_after_warmup\": " << cbr->m_sentInWindow
           << ", \"udp_delivered_packets_after_warmup\": " << sink.m_totalBytes / a.payloadBytes;
    }
    if (sat)
    {
        os << ", \"udp_sent_packets\": " << sat->m_sent;
    }
    // first RouteDiscoveryTime of n0 = the set-up of its path to nk
    const auto& d0 = g_nodes[0].discoveryMs;
    os << ", \"path_setup_ms\": " << (d0.empty() ? -1.0 : d0.front());
    os << ", \"nodes\": [";
    for (uint32_t i = 0; i < g_nodes.size(); ++i)
    {
        const auto& n = g_nodes[i];
        std::ostringstream hwmpReport;
        mps.Get(i)->GetObject<dot11s::HwmpProtocol>()->Report(hwmpReport);
        std::ostringstream pmpReport;
        mps.Get(i)->GetObject<dot11s::PeerManagementProtocol>()->Report(pmpReport);
        std::ostringstream links;
        links << "[";
        for (size_t k = 0; k < n.linkEvents.size(); ++k)
        {
            links << (k ? ", " : "") << "[" << n.linkEvents[k].first << ", \""
                  << n.linkEvents[k].second << "\"]";
        }
        links << "]";
        os << (i ? ", " : "") << "{\"name\": \"n" << i << "\", \"address\": \""
           << Mac48Address::ConvertFrom(mps.Get(i)->GetAddress()) << "\""
           << ", \"data_attempts\": " << n.dataAttempts
           << ", \"data_failures\": " << n.dataFailures << ", \"retry_drops\": " << n.retryDrops
           << ", \"queue_drops\": " << n.queueDrops << ", \"frames\": " << JsonStrMap(n.frames)
           << ", \"link_events\": " << links.str()
           << ", \"route_discovery_ms\": " << JsonDoubles(n.discoveryMs)
           << ", \"route_discovery_at_s\": " << JsonDoubles(n.discoveryAtS)
           << ", \"hwmp\": " << JsonReportStats(hwmpReport.str())
           << ", \"peer_management\": " << JsonReportStats(pmpReport.str()) << "}";
    }
    os << "]";
    // --- the ns-3 mesh defaults in force (NOTES.md "802.11s mesh")
    {
        auto mac0 = DynamicCast<MeshWifiInterfaceMac>(ifaces[0]->GetMac());
        auto hwmp0 = mps.Get(0)->GetObject<dot11s::HwmpProtocol>();
        auto pmp0 = mps.Get(0)->GetObject<dot11s::PeerManagementProtocol>();
        auto link = CreateObject<dot11s::PeerLink>(); // a fresh link: the attribute defaults
        os << ", \"mesh_defaults\": {\"BeaconInterval\": \"" << Attr(mac0, "BeaconInterval")
           << "\", \"RandomStart\": \"" << Attr(mac0, "RandomStart") << "\"";
        for (const char* name : {"Dot11MeshHWMPmaxPREQretries",
                                 "Dot11MeshHWMPnetDiameterTraversalTime",
                                 "Dot11MeshHWMPpreqMinInterval",
                                 "Dot11MeshHWMPperrMinInterval",
                                 "Dot11MeshHWMPactivePathTimeout",
                                 "MaxQueueSize",
                                 "MaxTtl",
                                 "DoFlag",
                                 "RfFlag",
                                 "UnicastPreqThreshold",
                                 "UnicastPerrThreshold"})
        {
            os << ", \"" << name << "\": \"" << Attr(hwmp0, name) << "\"";
        }
        for (const char* name :
             {"MaxNumberOfPeerLinks", "MaxBeaconShiftValue", "EnableBeaconCollisionAvoidance"})
        {
            os << ", \"" << name << "\": \"" << Attr(pmp0, name) << "\"";
        }
        for (const char* name : {"RetryTimeout",
                                 "HoldingTimeout",
                                 "ConfirmTimeout",
                                 "MaxRetries",
                                 "MaxBeaconLoss",
                                 "MaxPacketFailure"})
        {
            os << ", \"PeerLink::" << name << "\": \"" << Attr(link, name) << "\"";
        }
        os << ", \"slot_us\": " << phy0->GetSlot().GetMicroSeconds()
           << ", \"channel_number\": " << +phy0->GetChannelNumber()
           << ", \"frequency_mhz\": " << phy0->GetFrequency() << "}";
    }
    if (traffic == "tcp")
    {
        os << JsonTcp(t, flow, window);
    }
    os << "}";
    std::cout << os.str() << std::endl;

    Simulator::Destroy();
    return 0;
}
