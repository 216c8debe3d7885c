"""The live Linux kernel on issue 34's wired case: one bulk TCP upload through 5 Mbit/s, 10 ms
each way, behind a drop-tail queue of two packets (examples/wired-bottleneck.toml), in network
namespaces. Needs root (it creates namespaces, veth pairs and qdiscs), iproute2, ethtool,
iperf3 and tcpdump (Debian: apt-get install ethtool iperf3 tcpdump); Python 3.10+, no packages.

    python3 bench/linux_netns_bed.py                     # CUBIC and Reno, 3 runs of 30 s (~4 min)
    python3 bench/linux_netns_bed.py --rcv-quickack      # the receiver ACKs every segment
    python3 bench/linux_netns_bed.py --cc cubic --runs 1 --seconds 10 --out results/netns-bed
    python3 bench/linux_netns_bed.py --iperf3=-w4M       # fixed 4 MB socket buffers
    python3 bench/linux_netns_bed.py --snd-capture       # capture at the sender too

The bed, four namespaces in a line (every veth at MTU 1500 with checksum offload, TSO, GSO and
GRO off, so each segment is one 1514-byte frame; static neighbour entries, so no ARP):

    sender --veth-- router --veth-- wire --veth-- receiver

- router -> wire: tbf at 5 Mbit/s (it counts the 14-byte Ethernet header, so a full frame
  takes 2.4224 ms, as airtcp's 1512-byte segment with its 2-byte PPP header) with a burst of
  one frame, over a pfifo of 2 packets: tbf releases a packet when the link would start
  sending it, so its queue holds the packets waiting behind the one being sent, as airtcp's
  queue_limit_packets = 2. The only queue on the path that fills.
- receiver -> wire: the same tbf and 2-packet pfifo for the ACKs (they never queue).
- wire: a user-space bridge (this script with --bridge, at real-time priority) that forwards
  every frame between its two veths after the propagation delay plus the serialisation the tbf
  did not spend (a full frame forward, 12.42 ms; an ACK back, 10.11 ms), so the path's RTT is
  airtcp's (this kernel has no netem). summary.json's "bridge" counts frames sent late.
- sender -> router: a veth with noqueue (airtcp's 1 Gbit/s link).

Each run: iperf3 for SECONDS (goodput at the receiver), the sender's TcpRetransSegs,
TcpExtTCPTimeouts and TcpExtTCPLossProbes (and every counter that moved, both ends) from
/proc/net/{snmp,netstat}, the bottleneck's drops, `ss -tinm` at both ends every 0.5 s, and
tcpdump at the receiver's interface, from which ack_pattern() derives the ACK pattern (ACKs per
data segment in the first second and from 5 s on, each ACK classed by what it acknowledges
and how soon) and the advertised window over time. ack_pattern() also reads airtcp's capture:
`airtcp run examples/wired-bottleneck.toml --pcap DIR` then
`python3 -c "import sys; sys.path.insert(0, 'bench'); import linux_netns_bed as b;
print(b.ack_pattern(__import__('pathlib').Path('DIR/receiver-link1.pcap'))['steady'])"`.

Writes OUT/summary.json and per run the pcap, the ss samples and iperf3's JSON; prints a line
per run. docs/validation.md section 24 has the figures.
"""

from __future__ import annotations

import argparse
import collections
import gc
import json
import os
import select
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

NS = ("bed-snd", "bed-rtr", "bed-wire", "bed-rcv")
SND_IP, RTR_IP1, RTR_IP2, RCV_IP = "10.77.1.1", "10.77.1.2", "10.77.2.1", "10.77.2.2"
ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
CHILDREN: list[subprocess.Popen] = []  # killed at the end, whatever happened


def spawn(cmd: list[str], **kw: object) -> subprocess.Popen:
    p = subprocess.Popen(cmd, **kw)
    CHILDREN.append(p)
    return p


def sh(*args: str, ns: str | None = None, check: bool = True) -> str:
    """Run a command (one string is split at spaces), in namespace ns if given."""
    words = args[0].split() if len(args) == 1 else list(args)
    cmd = (["ip", "netns", "exec", ns] if ns else []) + words
    r = subprocess.run(cmd, capture_output=True, text=True)
    if check and r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {r.stderr.strip()}")
    return r.stdout


def teardown() -> None:
    for p in CHILDREN:
        if p.poll() is None:
            p.kill()
            p.wait()
    CHILDREN.clear()
    for ns in NS:
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def mac(ns: str, dev: str) -> str:
    return json.loads(sh("ip", "-j", "link", "show", dev, ns=ns))[0]["address"]


def setup(
    rate_mbit: float, queue: int, delays_ms: tuple[float, float], rcv_quickack: bool = False
) -> subprocess.Popen:
    """Build the bed; returns the bridge process (the wire's delay)."""
    teardown()
    snd, rtr, wire, rcv = NS
    for ns in NS:
        sh("ip", "netns", "add", ns)
        sh("ip", "link", "set", "lo", "up", ns=ns)
    pairs = [(snd, "s0", rtr, "r0"), (rtr, "r1", wire, "w0"), (wire, "w1", rcv, "d0")]
    for a, da, b, db in pairs:
        sh(f"ip link add name {da} netns {a} type veth peer name {db} netns {b}")
    devs = [(snd, "s0"), (rtr, "r0"), (rtr, "r1"), (wire, "w0"), (wire, "w1"), (rcv, "d0")]
    for ns, dev in devs:
        sh("ip", "link", "set", dev, "mtu", "1500", "up", ns=ns)
        sh("ethtool", "-K", dev, "tx", "off", "tso", "off", "gso", "off", "gro", "off", ns=ns)
    for dev in ("w0", "w1"):
        sh("ip", "link", "set", dev, "promisc", "on", ns=wire)
    sh("ip", "addr", "add", f"{SND_IP}/24", "dev", "s0", ns=snd)
    sh("ip", "addr", "add", f"{RTR_IP1}/24", "dev", "r0", ns=rtr)
    sh("ip", "addr", "add", f"{RTR_IP2}/24", "dev", "r1", ns=rtr)
    sh("ip", "addr", "add", f"{RCV_IP}/24", "dev", "d0", ns=rcv)
    sh("ip", "route", "add", "default", "via", RTR_IP1, ns=snd)
    sh("ip", "route", "add", "default", "via", RTR_IP2, ns=rcv)
    sh("sysctl", "-qw", "net.ipv4.ip_forward=1", ns=rtr)
    if rcv_quickack:  # the route's quickack metric: tcp_in_quickack_mode, an ACK per segment
        sh("ip", "route", "replace", "default", "via", RTR_IP2, "quickack", "1", ns=rcv)
    for ns, ip, dev, peer_ns, peer_dev in [
        (snd, RTR_IP1, "s0", rtr, "r0"),
        (rtr, SND_IP, "r0", snd, "s0"),
        (rtr, RCV_IP, "r1", rcv, "d0"),
        (rcv, RTR_IP2, "d0", rtr, "r1"),
    ]:
        lladdr = mac(peer_ns, peer_dev)
        sh(f"ip neigh replace {ip} lladdr {lladdr} dev {dev} nud permanent", ns=ns)
    # The bottleneck, both ways: one frame of burst, two packets waiting.
    for ns, dev in [(rtr, "r1"), (rcv, "d0")]:
        rate = f"{rate_mbit * 1e6:.0f}bit"
        tbf = f"tbf rate {rate} burst 1540 limit {1514 * queue}"
        sh(f"tc qdisc replace dev {dev} root handle 1: {tbf}", ns=ns)
        sh(f"tc qdisc replace dev {dev} parent 1:1 handle 10: pfifo limit {queue}", ns=ns)
    bridge = spawn(
        ["ip", "netns", "exec", wire, sys.executable, os.path.abspath(__file__)]
        + f"--bridge w0 w1 --bridge-delays {delays_ms[0]} {delays_ms[1]}".split(),
        stdout=subprocess.PIPE,
        text=True,
    )
    time.sleep(0.5)
    return bridge


def run_bridge(a: str, b: str, a_to_b_ms: float, b_to_a_ms: float) -> None:
    """Forward every frame between veths a and b after a fixed delay each way (FIFO)."""
    socks = {}
    for dev in (a, b):
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
        s.bind((dev, 0))
        s.setblocking(False)
        socks[dev] = s
    out = {a: socks[b], b: socks[a]}
    delay = {a: a_to_b_ms / 1000.0, b: b_to_a_ms / 1000.0}
    queues: dict[str, collections.deque] = {a: collections.deque(), b: collections.deque()}
    by_fd = {s.fileno(): dev for dev, s in socks.items()}
    forwarded = collections.Counter()
    late_max = 0.0
    late = collections.Counter()  # frames sent more than 0.2, 0.5, 1 ms after their due time
    try:  # a real-time priority keeps the delay exact while TCP and tcpdump run
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(50))
        realtime = True
    except OSError:
        realtime = False
    gc.disable()
    running = True

    def stop(*_: object) -> None:
        nonlocal running
        running = False

    import signal

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while running:
        now = time.monotonic()
        due = min((q[0][0] for q in queues.values() if q), default=now + 0.1)
        # select's timeout is in microseconds (poll's and epoll's round up to milliseconds)
        ready, _, _ = select.select(list(by_fd), [], [], max(0.0, due - now))
        for fd in ready:
            dev = by_fd[fd]
            s = socks[dev]
            while True:
                try:
                    data, addr = s.recvfrom(65536)
                except BlockingIOError:
                    break
                except OSError:  # the veth went away
                    running = False
                    break
                if addr[2] == PACKET_OUTGOING:
                    continue
                queues[dev].append((time.monotonic() + delay[dev], data))
        now = time.monotonic()
        for dev, q in queues.items():
            while q and q[0][0] <= now:
                t, data = q.popleft()
                late_max = max(late_max, now - t)
                for limit in (0.2, 0.5, 1.0):
                    late[f">{limit}ms"] += now - t > limit / 1000.0
                out[dev].send(data)
                forwarded[dev] += 1
    print(
        json.dumps(
            {
                "forwarded": dict(forwarded),
                "late_max_ms": late_max * 1000.0,
                "late": dict(late),
                "realtime": realtime,
            }
        )
    )


def counters(ns: str) -> dict[str, int]:
    """Every counter of /proc/net/snmp and /proc/net/netstat, as nstat names them."""
    out = {}
    for f in ("/proc/net/snmp", "/proc/net/netstat"):
        lines = sh("cat", f, ns=ns).splitlines()
        for head, vals in zip(lines[::2], lines[1::2], strict=True):
            prefix, names = head.split(":", 1)
            for n, v in zip(names.split(), vals.split(":", 1)[1].split(), strict=True):
                out[prefix + n] = int(v)
    return out


def diff(after: dict[str, int], before: dict[str, int]) -> dict[str, int]:
    return {k: v - before.get(k, 0) for k, v in after.items() if v != before.get(k, 0)}


def sample_ss(stop: threading.Event, path: Path) -> None:
    t0 = time.monotonic()
    with path.open("w") as f:
        while not stop.wait(0.5):
            t = time.monotonic() - t0
            s = sh("ss", "-tinm", "dst", RCV_IP, ns=NS[0], check=False)
            r = sh("ss", "-tinm", "src", RCV_IP, ns=NS[3], check=False)
            f.write(f"=== t={t:.2f} sender\n{s}=== t={t:.2f} receiver\n{r}")


def read_pcap(path: Path) -> list[tuple[float, bytes]]:
    """(time, IPv4 packet) per record of an Ethernet (1) or raw IPv4 (101) pcap."""
    data = path.read_bytes()
    magic, linktype = struct.unpack("<I", data[:4])[0], struct.unpack("<I", data[20:24])[0]
    scale = 1e-9 if magic == 0xA1B23C4D else 1e-6
    l2 = {1: 14, 101: 0}[linktype]
    pkts, off = [], 24
    while off + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack("<IIII", data[off : off + 16])
        frame = data[off + 16 : off + 16 + incl]
        if l2 == 0 or frame[12:14] == b"\x08\x00":
            pkts.append((sec + frac * scale, frame[l2:]))
        off += 16 + incl
    return pkts


def parse_tcp(pkt: bytes) -> dict | None:
    """The TCP header fields of an IPv4 packet (None if it is not TCP)."""
    if len(pkt) < 40 or pkt[9] != 6:
        return None
    ihl = (pkt[0] & 0x0F) * 4
    ip_len = struct.unpack(">H", pkt[2:4])[0]
    t = ihl
    sport, dport, seq, ack, off_flags, win = struct.unpack(">HHIIHH", pkt[t : t + 16])
    doff = (off_flags >> 12) * 4
    opts = pkt[t + 20 : t + doff]
    wscale, sack = None, False
    i = 0
    while i < len(opts):
        kind = opts[i]
        if kind == 0:
            break
        if kind == 1:
            i += 1
            continue
        if i + 1 >= len(opts):
            break
        ln = opts[i + 1]
        if kind == 3:
            wscale = opts[i + 2]
        elif kind == 5:
            sack = True
        i += max(ln, 2)
    return {
        "src": socket.inet_ntoa(pkt[12:16]),
        "sport": sport,
        "dport": dport,
        "seq": seq,
        "ack": ack,
        "flags": off_flags & 0x3F,
        "win": win,
        "len": ip_len - ihl - doff,
        "wscale": wscale,
        "sack": sack,
    }


def ack_pattern(pcap: Path, steady_from: float = 5.0) -> dict:
    """The receiver's ACKs in a capture at its interface (this bed's, or airtcp's
    `--pcap DIR` file DIR/receiver-link1.pcap): the connection carrying the most payload.

    Each ACK is classed by what it acknowledges: "2" (or "1", "3", ">3") new segments, sent
    "imm" (< 1 ms after the last data segment arrived) or "late" (a timer); "1-psh" is one
    segment at once after a full segment with PSH (Linux 6.6+: tcp_measure_rcv_mss sets
    ICSK_ACK_PUSHED, tcp_cleanup_rbuf ACKs when the application has read it); "dup" repeats
    the last ACK (with SACK blocks: out-of-order data); "window" repeats it with no data
    since (a window update)."""
    pkts = [(t, p) for t, raw in read_pcap(pcap) if (p := parse_tcp(raw))]
    flows = collections.Counter()
    for _, p in pkts:
        flows[(p["src"], p["sport"], p["dport"])] += p["len"]
    snd_ip, sport, dport = flows.most_common(1)[0][0]
    conn = [(t, p) for t, p in pkts if {p["sport"], p["dport"]} == {sport, dport}]
    t0 = conn[0][0]
    rcv_ws = (
        next((p["wscale"] for _, p in conn if p["src"] != snd_ip and p["flags"] & 0x02), None) or 0
    )
    mss = max(p["len"] for _, p in conn if p["src"] == snd_ip)
    rcv_nxt = None
    since_ack = 0
    last_data = None  # (time, PSH)
    last_ack = None
    acks = []  # (t, kind, window bytes)
    data = []  # (t, in order, PSH)
    for t, p in conn:
        rel = t - t0
        if p["src"] == snd_ip:
            if p["flags"] & 0x02:
                rcv_nxt = (p["seq"] + 1) & 0xFFFFFFFF
                continue
            if p["len"] == 0:
                continue
            in_order = p["seq"] == rcv_nxt
            if in_order:
                rcv_nxt = (p["seq"] + p["len"]) & 0xFFFFFFFF
            psh = bool(p["flags"] & 0x08)
            data.append((rel, in_order, psh))
            since_ack += 1
            last_data = (rel, psh)
            continue
        if p["len"] or p["flags"] & 0x03:  # data, SYN or FIN from the receiver
            continue
        if last_ack is None:
            kind = "first"
        elif p["ack"] == last_ack:
            kind = "dup" if since_ack else "window"
        else:
            n = round(((p["ack"] - last_ack) & 0xFFFFFFFF) / mss)
            late = last_data is None or rel - last_data[0] >= 0.001
            kind = f"{n if n <= 3 else '>3'}-{'late' if late else 'imm'}"
            if kind == "1-imm" and last_data[1]:
                kind = "1-psh"
            if p["sack"]:
                kind += "-sack"
        acks.append((rel, kind, p["win"] << rcv_ws))
        last_ack = p["ack"]
        since_ack = 0

    def span(lo: float, hi: float) -> dict:
        a = [x for x in acks if lo <= x[0] < hi]
        d = [x for x in data if lo <= x[0] < hi]
        return {
            "data_segments": len(d),
            "psh_segments": sum(x[2] for x in d),
            "acks": len(a),
            "acks_per_segment": round(len(a) / len(d), 3) if d else None,
            "kinds": dict(collections.Counter(x[1] for x in a).most_common()),
        }

    end = acks[-1][0] if acks else 0.0
    window_at = []
    for s in (0.0, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 29.5):
        w = [x[2] for x in acks if x[0] >= s]
        if w:
            window_at.append((s, w[0]))
    per_second = []
    for s in range(int(end) + 1):
        w = [x[2] for x in acks if s <= x[0] < s + 1]
        per_second.append(
            {
                "t": s,
                **span(s, s + 1),
                "win_min": min(w, default=None),
                "win_max": max(w, default=None),
            }
        )
    return {
        "mss": mss,
        "rcv_wscale": rcv_ws,
        "first_100ms": span(0, 0.1),
        "first_second": span(0, 1),
        "steady": span(steady_from, end + 1),
        "window_at": window_at,
        "per_second": per_second,
    }


def one_run(cc: str, seconds: int, out: Path, args: argparse.Namespace) -> dict:
    # tbf releases a packet when its link would start sending it: the wire adds the
    # serialisation (a full frame forward, an ACK back) to the propagation delay.
    fwd = args.delay_ms + 1514 * 8 / (args.rate_mbit * 1e3) * args.serialisation
    rev = args.delay_ms + 66 * 8 / (args.rate_mbit * 1e3) * args.serialisation
    bridge = setup(args.rate_mbit, args.queue, (fwd, rev), args.rcv_quickack)
    snd, rtr, _, rcv = NS
    for key, val in args.sysctl:
        sh("sysctl", "-qw", f"{key}={val}", ns=snd)
        sh("sysctl", "-qw", f"{key}={val}", ns=rcv)
    pcap = out / "rcv.pcap"
    if args.snd_capture:
        spawn(
            f"ip netns exec {snd} tcpdump -i s0 -s 128 -nn -U -w {out / 'snd.pcap'} tcp".split(),
            stderr=subprocess.DEVNULL,
        )
    dump = spawn(
        f"ip netns exec {rcv} tcpdump -i d0 -s 128 -nn -U -w {pcap} tcp".split(),
        stderr=subprocess.PIPE,
    )
    server = spawn(
        ["ip", "netns", "exec", rcv, "iperf3", "-s", "-1", "-J"], stdout=subprocess.PIPE, text=True
    )
    time.sleep(1.0)
    before = {ns: counters(ns) for ns in (snd, rcv)}
    stop = threading.Event()
    sampler = threading.Thread(target=sample_ss, args=(stop, out / "ss.txt"))
    sampler.start()
    client = sh(
        "iperf3", "-c", RCV_IP, "-t", str(seconds), "-C", cc, "-J", "-i", "1", *args.iperf3, ns=snd
    )
    stop.set()
    sampler.join()
    after = {ns: counters(ns) for ns in (snd, rcv)}
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
    time.sleep(0.5)
    dump.terminate()
    dump.wait(timeout=10)
    qdisc = sh("tc", "-s", "-j", "qdisc", "show", "dev", "r1", ns=rtr)
    bridge.terminate()
    bstats = json.loads(bridge.communicate(timeout=10)[0] or "{}")
    (out / "iperf3.json").write_text(client)
    res = json.loads(client)
    end = res["end"]
    stream = end["streams"][0]["sender"]
    moved = {ns: diff(after[ns], before[ns]) for ns in (snd, rcv)}
    qd = [q for q in json.loads(qdisc) if q["kind"] == "pfifo"][0]
    return {
        "cc": cc,
        "goodput_mbps": end["sum_received"]["bits_per_second"] / 1e6,
        "sender_mbps": end["sum_sent"]["bits_per_second"] / 1e6,
        "iperf3_retransmits": end["sum_sent"]["retransmits"],
        "TcpRetransSegs": moved[snd].get("TcpRetransSegs", 0),
        "TcpExtTCPTimeouts": moved[snd].get("TcpExtTCPTimeouts", 0),
        "TcpExtTCPLossProbes": moved[snd].get("TcpExtTCPLossProbes", 0),
        "TcpExtTCPSpuriousRTOs": moved[snd].get("TcpExtTCPSpuriousRTOs", 0),
        "max_snd_cwnd_bytes": stream.get("max_snd_cwnd"),
        "queue_drops": qd.get("drops"),
        "queue_sent_packets": qd.get("packets"),
        "bridge": bstats,
        "counters_sender": moved[snd],
        "counters_receiver": moved[rcv],
        "acks": ack_pattern(pcap),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cc", default="cubic,reno")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=30)
    ap.add_argument("--rate-mbit", type=float, default=5.0)
    ap.add_argument("--queue", type=int, default=2, help="packets waiting at the bottleneck")
    ap.add_argument("--delay-ms", type=float, default=10.0, help="one-way propagation delay")
    ap.add_argument(
        "--serialisation",
        type=int,
        choices=(0, 1),
        default=1,
        help="1: add a frame's serialisation to the wire's delay (airtcp's link)",
    )
    ap.add_argument(
        "--sysctl",
        action="append",
        default=[],
        type=lambda s: s.split("=", 1),
        help="KEY=VALUE set in the sender's and the receiver's namespaces",
    )
    ap.add_argument(
        "--rcv-quickack",
        action="store_true",
        help="the receiver ACKs every segment (its route's quickack metric)",
    )
    ap.add_argument(
        "--iperf3",
        action="append",
        default=[],
        help="one more argument for the iperf3 client (e.g. --iperf3=-w4M)",
    )
    ap.add_argument("--snd-capture", action="store_true", help="capture at the sender too")
    ap.add_argument("--out", default="results/linux_netns_bed")
    ap.add_argument("--bridge", nargs=2, metavar=("A", "B"), help=argparse.SUPPRESS)
    ap.add_argument("--bridge-delays", nargs=2, type=float, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.bridge:
        run_bridge(*args.bridge, *args.bridge_delays)
        return 0
    if os.geteuid() != 0:
        print("needs root (namespaces, qdiscs)", file=sys.stderr)
        return 2
    out = Path(args.out)
    results = []
    try:
        for cc in args.cc.split(","):
            for i in range(1, args.runs + 1):
                d = out / f"{cc}-{i}"
                d.mkdir(parents=True, exist_ok=True)
                r = one_run(cc, args.seconds, d, args)
                r["run"] = i
                results.append(r)
                a = r["acks"]
                print(
                    f"{cc} run {i}: {r['goodput_mbps']:.3f} Mbit/s, retrans "
                    f"{r['TcpRetransSegs']}, RTOs {r['TcpExtTCPTimeouts']}, TLPs "
                    f"{r['TcpExtTCPLossProbes']}, queue drops {r['queue_drops']}; ACKs/seg "
                    f"first s {a['first_second']['acks_per_segment']} "
                    f"{a['first_second']['kinds']}, steady "
                    f"{a['steady']['acks_per_segment']} {a['steady']['kinds']}; window "
                    f"{a['window_at']}",
                    flush=True,
                )
    finally:
        teardown()
    (out / "summary.json").write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
