"""Run the ns-3 3.44 reference benchmarks (bss_saturation, chain_udp, bss_tcp, chain_tcp,
distance_udp, ht_upload, mesh_chain, wired_tcp).

The C++ programs live next to this file and are compiled by ``build.sh`` against the ns-3
libraries shipped in the PyPI wheel ``ns3==3.44.post0``. Each program prints one JSON line; the
functions here return that JSON as a dict, plus:

* ``process_wall_seconds``: wall time of the whole process (startup + setup + run + teardown),
* ``cmd``: the command line that was executed.

``wall_seconds`` (from the program) is the wall time of ``Simulator::Run()`` only.

Command line (writes a Markdown table of the reference matrix of NOTES.md)::

    python bench/ns3/ns3_runner.py table
    python bench/ns3/ns3_runner.py bss --stations 10 --standard 80211a
    python bench/ns3/ns3_runner.py chain --hops 5 --standard 80211g
    python bench/ns3/ns3_runner.py bss-tcp --cc cubic --del-ack-count 1
    python bench/ns3/ns3_runner.py chain-tcp --hops 5 --retry-limit 7
    python bench/ns3/ns3_runner.py distance --distance-m 40 --rate-manager minstrel
    python bench/ns3/ns3_runner.py ht --mcs 7 --traffic tcp --max-ampdu-bytes 0
    python bench/ns3/ns3_runner.py ht-table   # the 802.11n cases of NOTES.md "802.11n (HT)"
    python bench/ns3/ns3_runner.py ht --standard 80211ax --mcs 11 --width-mhz 80 --gi-ns 800
    python bench/ns3/ns3_runner.py vht-he-table   # NOTES.md "802.11ac (VHT) and 802.11ax (HE)"
    python bench/ns3/ns3_runner.py mesh --traffic cbr --rate-mbps 2   # 802.11s chain
    python bench/ns3/ns3_runner.py wired-tcp --rate-mbps 5 --delay-ms 10 --queue-packets 2
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BUILD_SCRIPT = HERE / "build.sh"
PROGRAMS = (
    "bss_saturation",
    "chain_udp",
    "bss_tcp",
    "chain_tcp",
    "distance_udp",
    "ht_upload",
    "mesh_chain",
    "wired_tcp",
)


def build(python: str = sys.executable, programs: Sequence[str] = ()) -> dict[str, Path]:
    """Build (idempotently) ``programs`` (default: all); return ``{program name: binary path}``.

    ``python`` is the interpreter whose site-packages hold (or will receive, via pip) the
    ``ns3==3.44.post0`` wheel.
    """
    env = dict(os.environ, PYTHON=python)
    proc = subprocess.run(
        ["bash", str(BUILD_SCRIPT), *programs],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"ns-3 build failed ({proc.returncode}):\n{proc.stderr}")
    paths = [Path(line) for line in proc.stdout.splitlines() if line.strip()]
    result = {p.name: p for p in paths}
    missing = [name for name in (programs or PROGRAMS) if name not in result]
    if missing:
        raise RuntimeError(f"build.sh did not report binaries {missing}:\n{proc.stdout}")
    return result


@cache
def _binaries(python: str) -> dict[str, Path]:
    return build(python)


@cache
def _binary(python: str, program: str) -> Path:
    """One program, built alone (wired_tcp needs none of the WiFi programs)."""
    return build(python, (program,))[program]


def _bool(flag: bool) -> str:
    return "1" if flag else "0"


def _run(binary: Path, args: Sequence[str], timeout: float | None) -> dict[str, Any]:
    cmd = [str(binary), *args]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(
            f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
        )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(f"no JSON output from {' '.join(cmd)}:\n{proc.stdout}\n{proc.stderr}")
    result: dict[str, Any] = json.loads(lines[-1])
    result["process_wall_seconds"] = elapsed
    result["cmd"] = cmd
    return result


def _common_args(
    standard: str,
    data_rate_mbps: float,
    basic_rate_mbps: float,
    payload_bytes: int,
    duration_s: float,
    warmup_s: float,
    seed: int,
    retry_limit: int,
    queue_packets: int,
    qos: bool,
    short_preamble: bool,
    erp_mixed: bool,
    run: int,
) -> list[str]:
    return [
        f"--standard={standard}",
        f"--dataRateMbps={data_rate_mbps:g}",
        f"--basicRateMbps={basic_rate_mbps:g}",
        f"--payloadBytes={payload_bytes}",
        f"--durationS={duration_s:g}",
        f"--warmupS={warmup_s:g}",
        f"--seed={seed}",
        f"--run={run}",
        f"--retryLimit={retry_limit}",
        f"--queuePackets={queue_packets}",
        f"--qos={_bool(qos)}",
        f"--shortPreamble={_bool(short_preamble)}",
        f"--erpMixed={_bool(erp_mixed)}",
    ]


def run_bss(
    stations: int,
    standard: str,
    data_rate_mbps: float,
    basic_rate_mbps: float,
    payload_bytes: int,
    duration_s: float,
    warmup_s: float,
    seed: int,
    qos: bool,
    retry_limit: int,
    queue_packets: int = 100,
    short_preamble: bool = False,
    erp_mixed: bool = False,
    run: int = 1,
    extra_args: Sequence[str] = (),
    timeout: float | None = None,
    python: str = sys.executable,
) -> dict[str, Any]:
    """N saturated stations -> one receiver, single collision domain (bss_saturation.cc).

    ``retry_limit`` is the maximum number of RETRANSMISSIONS (attempts = retry_limit + 1).
    ``extra_args`` are passed verbatim (e.g. ``["--preambleDetection=0"]``).
    """
    binary = _binaries(python)["bss_saturation"]
    args = [f"--stations={stations}"] + _common_args(
        standard,
        data_rate_mbps,
        basic_rate_mbps,
        payload_bytes,
        duration_s,
        warmup_s,
        seed,
        retry_limit,
        queue_packets,
        qos,
        short_preamble,
        erp_mixed,
        run,
    )
    return _run(binary, [*args, *extra_args], timeout)


def run_chain(
    hops: int,
    standard: str,
    data_rate_mbps: float,
    basic_rate_mbps: float,
    payload_bytes: int,
    duration_s: float,
    warmup_s: float,
    seed: int,
    retry_limit: int,
    queue_packets: int = 100,
    qos: bool = False,
    short_preamble: bool = False,
    erp_mixed: bool = False,
    run: int = 1,
    extra_args: Sequence[str] = (),
    timeout: float | None = None,
    python: str = sys.executable,
) -> dict[str, Any]:
    """k-hop chain n0 -> ... -> nk, one saturating UDP flow, all nodes in range (chain_udp.cc)."""
    binary = _binaries(python)["chain_udp"]
    args = [f"--hops={hops}"] + _common_args(
        standard,
        data_rate_mbps,
        basic_rate_mbps,
        payload_bytes,
        duration_s,
        warmup_s,
        seed,
        retry_limit,
        queue_packets,
        qos,
        short_preamble,
        erp_mixed,
        run,
    )
    return _run(binary, [*args, *extra_args], timeout)


def _tcp_args(
    cc: str,
    mss: int,
    del_ack_count: int,
    del_ack_timeout_ms: float,
    min_rto_ms: float,
    initial_cwnd: int,
    timestamps: bool,
    sack: bool,
    snd_rcv_buf: int,
    recovery: str,
    snd_buf: int | None = None,
    rcv_buf: int | None = None,
) -> list[str]:
    bufs = [f"--sndBuf={snd_buf}"] if snd_buf else []
    bufs += [f"--rcvBuf={rcv_buf}"] if rcv_buf else []
    return bufs + [
        f"--cc={cc}",
        f"--mss={mss}",
        f"--delAckCount={del_ack_count}",
        f"--delAckTimeoutMs={del_ack_timeout_ms:g}",
        f"--minRtoMs={min_rto_ms:g}",
        f"--initialCwnd={initial_cwnd}",
        f"--timestamps={_bool(timestamps)}",
        f"--sack={_bool(sack)}",
        f"--sndRcvBuf={snd_rcv_buf}",
        f"--recovery={recovery}",
    ]


def run_bss_tcp(
    standard: str,
    data_rate_mbps: float,
    basic_rate_mbps: float,
    duration_s: float,
    warmup_s: float,
    seed: int,
    cc: str = "newreno",
    mss: int = 1460,
    del_ack_count: int = 2,
    del_ack_timeout_ms: float = 40.0,
    min_rto_ms: float = 200.0,
    initial_cwnd: int = 10,
    timestamps: bool = True,
    sack: bool = False,
    snd_rcv_buf: int = 6291456,
    recovery: str = "classic",
    snd_buf: int | None = None,
    rcv_buf: int | None = None,
    retry_limit: int = 6,
    queue_packets: int = 100,
    qos: bool = False,
    short_preamble: bool = False,
    erp_mixed: bool = False,
    run: int = 1,
    extra_args: Sequence[str] = (),
    timeout: float | None = None,
    python: str = sys.executable,
) -> dict[str, Any]:
    """One STA -> AP bulk TCP flow (bss_tcp.cc); TCP defaults follow airtcp (NOTES.md "TCP").

    ``cc`` is a Linux name (newreno, cubic, ...) or an ns-3 TypeId name (TcpLinuxReno, ...);
    ``del_ack_count`` 1 = an ACK for every segment, 2 = delayed ACK; ``recovery`` "classic"
    (TcpClassicRecovery) or "prr" (ns-3's default); ``snd_rcv_buf`` sets both socket buffers,
    ``snd_buf``/``rcv_buf`` (when given) each one. The TCP counters are in ``result["tcp"]``.
    """
    binary = _binary(python, "bss_tcp")
    args = _common_args(
        standard,
        data_rate_mbps,
        basic_rate_mbps,
        mss,
        duration_s,
        warmup_s,
        seed,
        retry_limit,
        queue_packets,
        qos,
        short_preamble,
        erp_mixed,
        run,
    ) + _tcp_args(
        cc,
        mss,
        del_ack_count,
        del_ack_timeout_ms,
        min_rto_ms,
        initial_cwnd,
        timestamps,
        sack,
        snd_rcv_buf,
        recovery,
        snd_buf,
        rcv_buf,
    )
    return _run(binary, [*args, *extra_args], timeout)


def run_chain_tcp(
    hops: int,
    standard: str,
    data_rate_mbps: float,
    basic_rate_mbps: float,
    duration_s: float,
    warmup_s: float,
    seed: int,
    retry_limit: int,
    cc: str = "newreno",
    mss: int = 1460,
    del_ack_count: int = 2,
    del_ack_timeout_ms: float = 40.0,
    min_rto_ms: float = 200.0,
    initial_cwnd: int = 10,
    timestamps: bool = True,
    sack: bool = False,
    snd_rcv_buf: int = 6291456,
    recovery: str = "classic",
    snd_buf: int | None = None,
    rcv_buf: int | None = None,
    queue_packets: int = 100,
    qos: bool = False,
    short_preamble: bool = False,
    erp_mixed: bool = False,
    run: int = 1,
    extra_args: Sequence[str] = (),
    timeout: float | None = None,
    python: str = sys.executable,
) -> dict[str, Any]:
    """k-hop chain n0 -> ... -> nk, one bulk TCP flow, all nodes in range (chain_tcp.cc).

    ``retry_limit`` is the maximum number of MAC RETRANSMISSIONS (attempts = retry_limit + 1).
    """
    binary = _binaries(python)["chain_tcp"]
    args = (
        [f"--hops={hops}"]
        + _common_args(
            standard,
            data_rate_mbps,
            basic_rate_mbps,
            mss,
            duration_s,
            warmup_s,
            seed,
            retry_limit,
            queue_packets,
            qos,
            short_preamble,
            erp_mixed,
            run,
        )
        + _tcp_args(
            cc,
            mss,
            del_ack_count,
            del_ack_timeout_ms,
            min_rto_ms,
            initial_cwnd,
            timestamps,
            sack,
            snd_rcv_buf,
            recovery,
            snd_buf,
            rcv_buf,
        )
    )
    return _run(binary, [*args, *extra_args], timeout)


def run_distance(
    distance_m: float,
    standard: str = "80211a",
    rate_manager: str = "constant",
    data_rate_mbps: float = 54.0,
    basic_rate_mbps: float = 6.0,
    error_model: str = "nist",
    fading: str = "none",
    duration_s: float = 10.0,
    warmup_s: float = 1.0,
    seed: int = 1,
    retry_limit: int = 6,
    exponent: float = 3.0,
    reference_loss_db: float = 46.6777,
    tx_power_dbm: float = 16.0206,
    noise_figure_db: float = 7.0,
    payload_bytes: int = 1500,
    queue_packets: int = 100,
    run: int = 1,
    extra_args: Sequence[str] = (),
    timeout: float | None = None,
    python: str = sys.executable,
) -> dict[str, Any]:
    """One saturating UDP station -> receiver at ``distance_m`` over a log-distance channel
    (distance_udp.cc; NOTES.md "Distance").

    ``rate_manager`` is constant | arf | aarf | minstrel (``data_rate_mbps`` is used by
    constant only); ``error_model`` nist | yans | table (table = YansWifiPhyHelper's default,
    ns3::TableBasedErrorRateModel); ``fading`` none | rayleigh. The channel defaults are
    ns-3's (exponent 3, 46.6777 dB at 1 m, 16.0206 dBm, noise figure 7 dB). ``extra_args`` are
    passed verbatim (e.g. ``["--preambleMinRssiDbm=-101"]``).
    """
    binary = _binaries(python)["distance_udp"]
    args = [
        f"--distanceM={distance_m:g}",
        f"--standard={standard}",
        f"--rateManager={rate_manager}",
        f"--dataRateMbps={data_rate_mbps:g}",
        f"--basicRateMbps={basic_rate_mbps:g}",
        f"--errorModel={error_model}",
        f"--fading={fading}",
        f"--durationS={duration_s:g}",
        f"--warmupS={warmup_s:g}",
        f"--seed={seed}",
        f"--run={run}",
        f"--retryLimit={retry_limit}",
        f"--exponent={exponent!r}",
        f"--referenceLossDb={reference_loss_db!r}",
        f"--txPowerDbm={tx_power_dbm!r}",
        f"--noiseFigureDb={noise_figure_db!r}",
        f"--payloadBytes={payload_bytes}",
        f"--queuePackets={queue_packets}",
    ]
    return _run(binary, [*args, *extra_args], timeout)


def run_ht(
    mcs: int = 7,
    traffic: str = "udp",
    rate_manager: str = "constant",
    channel_width: int = 20,
    short_gi: bool = False,
    band: str = "5",
    max_ampdu_bytes: int | None = 65535,
    ap_max_ampdu_bytes: int | None = None,
    cc: str = "cubic",
    mss: int = 1448,
    payload_bytes: int = 1472,
    distance_m: float = 1.0,
    duration_s: float = 10.0,
    warmup_s: float = 2.0,
    seed: int = 1,
    run: int = 1,
    retry_limit: int = 6,
    queue_packets: int = 100,
    error_model: str = "table",
    extra_args: Sequence[str] = (),
    timeout: float | None = None,
    python: str = sys.executable,
    standard: str = "80211n",
    width_mhz: int | None = None,
    nss: int | None = None,
    gi_ns: int | None = None,
    he_gi_from_config: bool = False,
    series_ms: float = 0.0,
) -> dict[str, Any]:
    """One 802.11n station uploading to an AP (infrastructure BSS) over a log-distance channel
    (ht_upload.cc; NOTES.md "802.11n (HT)").

    ``standard`` "80211n" | "80211ac" | "80211ax" (single user; NOTES.md "802.11ac (VHT) and
    802.11ax (HE)"): ``mcs`` is then a VHT (0-9) / HE (0-11) MCS, ``width_mhz`` (None =
    ``channel_width``) 20/40/80/160, ``nss`` (None = auto) the spatial streams at both ends,
    ``short_gi`` the HT/VHT short GI and ``gi_ns`` (None = ns-3's default, 3200) the HE guard
    interval; ``he_gi_from_config`` sends HE data with the configured GI (``--heGiFromConfig``).
    ``max_ampdu_bytes=None`` leaves ns-3's default BE_MaxAmpduSize (65535).

    ``traffic`` udp (saturating, ``payload_bytes``) | tcp (one bulk flow, ``cc``, ``mss``);
    ``rate_manager`` constant (HT MCS ``mcs``) | minstrel-ht | ideal; ``band`` "5" | "2.4";
    ``max_ampdu_bytes`` is the station's BE_MaxAmpduSize (0 = no A-MPDU, no Block Ack
    agreement); ``ap_max_ampdu_bytes`` the AP's (None = the same). The other TCP settings are
    tcp_common.h's defaults (airtcp-like, SACK off); pass e.g. ``["--sack=1"]`` in
    ``extra_args``. Station counters: ``ppdus``, ``mpdus``, ``mean_mpdus_per_ppdu``,
    ``mpdus_per_ppdu_hist``, ``retransmitted_mpdus``, ``dropped_mpdus``; details in
    ``result["sta"]`` and ``result["ap"]``. TCP runs also give ``result["ack_rtt"]`` (per-ACK
    RTT at the simulator's clock) and, with ``cc="bbr"``, ``result["bbr"]`` (TcpBbr's state,
    min-RTT estimate and pacing rate; NOTES.md "BBR on an 802.11n upload"; its ``probe_rtt_s``,
    ``probe_rtt_end_s`` and ``cwnd_dips_s`` time the ProbeRTT spells, NOTES.md "BBR on an
    802.11ax upload"). ``series_ms`` > 0 (TCP only, ``--seriesMs``) adds ``result["series"]``:
    the sender's cwnd, pacing rate and BBR state every ``series_ms`` of simulated time. Builds
    ``ht_upload`` alone on first use.
    """
    binary = _binary(python, "ht_upload")
    args = [
        f"--mcs={mcs}",
        f"--traffic={traffic}",
        f"--rateManager={rate_manager}",
        f"--channelWidth={channel_width}",
        f"--shortGi={_bool(short_gi)}",
        f"--band={band}",
        f"--maxAmpduBytes={-1 if max_ampdu_bytes is None else max_ampdu_bytes}",
        f"--apMaxAmpduBytes={-1 if ap_max_ampdu_bytes is None else ap_max_ampdu_bytes}",
        f"--cc={cc}",
        f"--mss={mss}",
        f"--payloadBytes={payload_bytes}",
        f"--distanceM={distance_m:g}",
        f"--durationS={duration_s:g}",
        f"--warmupS={warmup_s:g}",
        f"--seed={seed}",
        f"--run={run}",
        f"--retryLimit={retry_limit}",
        f"--queuePackets={queue_packets}",
        f"--errorModel={error_model}",
    ]
    # only when used, so that 80211n command lines stay as they were
    if standard != "80211n":
        args.append(f"--standard={standard}")
    if width_mhz is not None:
        args.append(f"--widthMhz={width_mhz}")
    if nss is not None:
        args.append(f"--nss={nss}")
    if gi_ns is not None:
        args.append(f"--giNs={gi_ns}")
    if he_gi_from_config:
        args.append("--heGiFromConfig=1")
    if series_ms > 0:
        args.append(f"--seriesMs={series_ms:g}")
    return _run(binary, [*args, *extra_args], timeout)


def run_mesh(
    traffic: str,
    hops: int = 3,
    standard: str = "80211g",
    data_rate_mbps: float = 54.0,
    basic_rate_mbps: float = 6.0,
    payload_bytes: int = 1472,
    rate_mbps: float = 2.0,
    start_s: float = 1.0,
    duration_s: float = 22.0,
    warmup_s: float = 2.0,
    seed: int = 1,
    run: int = 1,
    retry_limit: int = 6,
    queue_packets: int = 100,
    spacing_m: float = 10.0,
    range_m: float = 15.0,
    cc: str = "newreno",
    mss: int = 1460,
    del_ack_count: int = 2,
    del_ack_timeout_ms: float = 40.0,
    min_rto_ms: float = 200.0,
    initial_cwnd: int = 10,
    timestamps: bool = True,
    sack: bool = False,
    snd_rcv_buf: int = 6291456,
    recovery: str = "classic",
    snd_buf: int | None = None,
    rcv_buf: int | None = None,
    short_preamble: bool = False,
    erp_mixed: bool = False,
    extra_args: Sequence[str] = (),
    timeout: float | None = None,
    python: str = sys.executable,
) -> dict[str, Any]:
    """k-hop chain of 802.11s mesh points (ns-3's Dot11s stack: peer management + HWMP), each
    hearing only its neighbours (RangePropagationLossModel, ``range_m``), one flow n0 -> nk
    (mesh_chain.cc; NOTES.md "802.11s mesh").

    ``traffic`` cbr (UDP at ``rate_mbps`` of ``payload_bytes`` payloads) | saturating (UDP) |
    tcp (one bulk flow with the TCP settings below, as ``run_chain_tcp``); the source starts at
    ``start_s``, counting at ``warmup_s``, the run ends at ``duration_s`` (total simulated
    time). ``retry_limit`` is the maximum number of MAC RETRANSMISSIONS. Mesh results:
    ``path_setup_ms`` (n0's first HwmpProtocol "RouteDiscoveryTime"), ``nodes`` (per node: data
    attempts and failures, frames by type@mode/bytes, peer-link open/close events, route
    discovery times, HWMP and peer-management statistics) and ``mesh_defaults``. ns-3 attributes
    can be changed through ``extra_args``, e.g. ``["--ns3::dot11s::PeerLink::MaxBeaconLoss=20"]``.
    """
    binary = _binaries(python)["mesh_chain"]
    args = [
        f"--traffic={traffic}",
        f"--hops={hops}",
        f"--rateMbps={rate_mbps:g}",
        f"--startS={start_s:g}",
        f"--spacingM={spacing_m:g}",
        f"--rangeM={range_m:g}",
    ] + _common_args(
        standard,
        data_rate_mbps,
        basic_rate_mbps,
        payload_bytes,
        duration_s,
        warmup_s,
        seed,
        retry_limit,
        queue_packets,
        True,  # the mesh MAC is a QoS MAC
        short_preamble,
        erp_mixed,
        run,
    )
    if traffic == "tcp":
        args += _tcp_args(
            cc,
            mss,
            del_ack_count,
            del_ack_timeout_ms,
            min_rto_ms,
            initial_cwnd,
            timestamps,
            sack,
            snd_rcv_buf,
            recovery,
            snd_buf,
            rcv_buf,
        )
    return _run(binary, [*args, *extra_args], timeout)


def ht_matrix(seed: int = 1, extra_args: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The 802.11n cases of NOTES.md "802.11n (HT)": MCS 0/7 (20 MHz, long GI, 5 GHz) x UDP /
    TCP CUBIC x A-MPDU on (65535) / off (0), 10 s after a 2 s warm-up."""
    rows: list[dict[str, Any]] = []
    for mcs in (0, 7):
        for traffic in ("udp", "tcp"):
            for ampdu in (65535, 0):
                res = run_ht(
                    mcs=mcs,
                    traffic=traffic,
                    cc="cubic",
                    max_ampdu_bytes=ampdu,
                    duration_s=10.0,
                    warmup_s=2.0,
                    seed=seed,
                    extra_args=extra_args,
                )
                row = {
                    "case": f"MCS {mcs} {traffic}{' cubic' if traffic == 'tcp' else ''} "
                    f"A-MPDU {'on' if ampdu else 'off'}",
                    "goodput_mbps": res["goodput_bps"] / 1e6,
                    "mean_mpdus_per_ppdu": res["mean_mpdus_per_ppdu"],
                    "ppdus": res["ppdus"],
                    "mpdus": res["mpdus"],
                    "retransmitted_mpdus": res["retransmitted_mpdus"],
                    "tcp_retransmissions": res.get("tcp", {}).get("retransmissions", ""),
                    "events": res["events"],
                    "run_wall_s": res["wall_seconds"],
                    "process_wall_s": res["process_wall_seconds"],
                }
                rows.append(row)
                print(json.dumps(row), file=sys.stderr, flush=True)
    return rows


def _ht_markdown(rows: list[dict[str, Any]]) -> str:
    head = (
        "| case | goodput (Mbit/s) | MPDUs/PPDU | PPDUs | MPDUs | MPDU retx | TCP retx "
        "| events | Run() wall (s) | process wall (s) |"
    )
    lines = [head, "|" + "---|" * 10]
    for r in rows:
        lines.append(
            f"| {r['case']} | {r['goodput_mbps']:.3f} | {r['mean_mpdus_per_ppdu']:.3f} "
            f"| {r['ppdus']} | {r['mpdus']} | {r['retransmitted_mpdus']} "
            f"| {r['tcp_retransmissions']} | {r['events']} | {r['run_wall_s']:.2f} "
            f"| {r['process_wall_s']:.2f} |"
        )
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------------
# 802.11ac (VHT) / 802.11ax (HE) single-user upload (NOTES.md "802.11ac (VHT) and 802.11ax (HE)")
# ----------------------------------------------------------------------------------------------

#: (label, standard, MCS, width MHz, NSS, short GI (VHT) | GI ns (HE), heGiFromConfig)
VHT_HE_CASES: tuple[tuple[str, str, int, int, int, int, bool], ...] = (
    ("VHT MCS 9, 80 MHz, 1 ss, long GI", "80211ac", 9, 80, 1, 0, False),
    ("VHT MCS 7, 80 MHz, 2 ss, short GI", "80211ac", 7, 80, 2, 1, False),
    ("VHT MCS 4, 40 MHz, 1 ss, long GI", "80211ac", 4, 40, 1, 0, False),
    ("VHT MCS 8, 20 MHz, 1 ss, long GI", "80211ac", 8, 20, 1, 0, False),
    ("VHT MCS 9, 160 MHz, 1 ss, long GI", "80211ac", 9, 160, 1, 0, False),
    ("HE MCS 11, 80 MHz, 1 ss, GI 800", "80211ax", 11, 80, 1, 800, False),
    ("HE MCS 7, 80 MHz, 2 ss, GI 800", "80211ax", 7, 80, 2, 800, False),
    ("HE MCS 5, 40 MHz, 1 ss, GI 1600", "80211ax", 5, 40, 1, 1600, False),
    ("HE MCS 5, 40 MHz, 1 ss, GI 1600 (--heGiFromConfig=1)", "80211ax", 5, 40, 1, 1600, True),
    ("HE MCS 9, 20 MHz, 1 ss, GI 3200", "80211ax", 9, 20, 1, 3200, False),
    ("HE MCS 11, 160 MHz, 1 ss, GI 800", "80211ax", 11, 160, 1, 800, False),
)

#: the standard's A-MPDU maximum, the cap of WifiMac's BE_MaxAmpduSize (wifi-mac.cc:203-211)
STANDARD_MAX_AMPDU = {"80211ac": 1048575, "80211ax": 6500631}

#: WifiMacQueue size for vht_he_matrix: above HE's 256-MPDU Block Ack window, so the queue
#: never limits an A-MPDU (ns-3 keeps in-flight MPDUs queued until they are acknowledged)
VHT_HE_QUEUE_PACKETS = 1024


def vht_he_matrix(
    seeds: Sequence[int] = (1, 2, 3),
    jobs: int = 2,
    duration_s: float = 10.0,
    warmup_s: float = 2.0,
    extra_args: Sequence[str] = (),
    python: str = sys.executable,
) -> list[dict[str, Any]]:
    """VHT_HE_CASES x A-MPDU limit (None = ns-3's default BE_MaxAmpduSize, 65535; the
    standard's maximum) x ``seeds``: saturated UDP (payload 1472), ``duration_s`` with a
    ``warmup_s`` warm-up, queue VHT_HE_QUEUE_PACKETS. One row per case and limit, with the
    per-seed goodputs; runs ``jobs`` processes at a time."""
    _binary(python, "ht_upload")  # build once, before the threads
    runs: list[tuple[tuple[str, str, int, int, int, int, bool], int | None, int]] = [
        (case, limit, seed)
        for case in VHT_HE_CASES
        for limit in (None, STANDARD_MAX_AMPDU[case[1]])
        for seed in seeds
    ]

    def one(run: tuple[tuple[str, str, int, int, int, int, bool], int | None, int]) -> dict:
        (label, standard, mcs, width, nss, gi, from_config), limit, seed = run
        res = run_ht(
            mcs=mcs,
            traffic="udp",
            standard=standard,
            width_mhz=width,
            nss=nss,
            short_gi=bool(gi) if standard == "80211ac" else False,
            gi_ns=gi if standard == "80211ax" else None,
            he_gi_from_config=from_config,
            max_ampdu_bytes=limit,
            payload_bytes=1472,
            duration_s=duration_s,
            warmup_s=warmup_s,
            seed=seed,
            queue_packets=VHT_HE_QUEUE_PACKETS,
            extra_args=extra_args,
            python=python,
        )
        sta = res["sta"]
        shape = res["sta_data_ppdu"]
        print(
            json.dumps(
                {
                    "case": label,
                    "limit": limit,
                    "seed": seed,
                    "goodput_mbps": res["goodput_bps"] / 1e6,
                    "run_wall_s": res["wall_seconds"],
                }
            ),
            file=sys.stderr,
            flush=True,
        )
        return {
            "goodput_mbps": res["goodput_bps"] / 1e6,
            "ppdus": sta["data_ppdus"],
            "mpdus": sta["data_mpdus"],
            "psdu_bytes": sta["data_psdu_bytes"],
            "airtime_us": shape["mean_ppdu_us"] * sta["data_ppdus"],
            "typical": shape["typical"],
            "retx": sta["retransmitted_mpdus"],
            "modes": sta["data_modes"],
            "ba_buffer": (res["block_ack_sta_to_ap"]["final"] or {}).get("buffer_size"),
            "max_ampdu_bytes": res["config"]["max_ampdu_bytes"],
            "cmd": res["cmd"],
        }

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(one, runs))

    rows: list[dict[str, Any]] = []
    for i in range(0, len(runs), len(seeds)):
        group = results[i : i + len(seeds)]
        case, limit, _ = runs[i]
        ppdus = sum(r["ppdus"] for r in group)
        typical = {json.dumps(r["typical"], sort_keys=True) for r in group}
        modes = sorted({m for r in group for m in r["modes"]})
        rows.append(
            {
                "case": case[0],
                "standard": case[1],
                "limit": "default" if limit is None else str(limit),
                "max_ampdu_bytes": group[0]["max_ampdu_bytes"],
                "modes": modes,
                "goodput_mbps": [r["goodput_mbps"] for r in group],
                "mean_goodput_mbps": sum(r["goodput_mbps"] for r in group) / len(group),
                "mean_mpdus": sum(r["mpdus"] for r in group) / ppdus if ppdus else 0.0,
                "mean_psdu_bytes": sum(r["psdu_bytes"] for r in group) / ppdus if ppdus else 0.0,
                "mean_ppdu_us": sum(r["airtime_us"] for r in group) / ppdus if ppdus else 0.0,
                # the most frequent (MPDUs, bytes, duration) of seed 1's run
                "typical": group[0]["typical"],
                "typical_same_all_seeds": len(typical) == 1,
                "ba_buffer": sorted({r["ba_buffer"] for r in group}, key=str),
                "retx": [r["retx"] for r in group],
                "cmd": group[0]["cmd"],
            }
        )
    return rows


def _vht_he_markdown(rows: list[dict[str, Any]], seeds: Sequence[int]) -> str:
    head = (
        "| case | BE_MaxAmpduSize | data TXVECTOR on air | goodput mean (Mbit/s) "
        f"| per seed {'/'.join(str(s) for s in seeds)} (Mbit/s) | MPDUs/PPDU | PSDU bytes/PPDU "
        "| mean PPDU (µs) | typical PPDU: MPDUs, bytes, µs (share) | BA window "
        "| MPDU retx per seed |"
    )
    lines = [head, "|" + "---|" * 11]
    for r in rows:
        t = r["typical"]
        typical = (
            f"{t['mpdus']}, {t['psdu_bytes']}, {t['ppdu_us']:g} ({100 * t['share']:.1f} %)"
            if t
            else ""
        )
        limit = f"{r['max_ampdu_bytes']} (default)" if r["limit"] == "default" else r["limit"]
        lines.append(
            f"| {r['case']} | {limit} | {', '.join(m.split('/', 1)[1] for m in r['modes'])} "
            f"| {r['mean_goodput_mbps']:.3f} "
            f"| {' / '.join(f'{g:.3f}' for g in r['goodput_mbps'])} | {r['mean_mpdus']:.3f} "
            f"| {r['mean_psdu_bytes']:.1f} | {r['mean_ppdu_us']:.1f} | {typical} "
            f"| {', '.join(str(b) for b in r['ba_buffer'])} "
            f"| {' / '.join(str(x) for x in r['retx'])} |"
        )
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------------
# Reference matrix (NOTES.md, section "Measured")
# ----------------------------------------------------------------------------------------------

_PHY = {
    "80211a": (54.0, 6.0),
    "80211b": (11.0, 1.0),
}


def reference_matrix(seed: int = 1) -> list[dict[str, Any]]:
    """Run the reference cases of NOTES.md sequentially; return one summary row per run."""
    rows: list[dict[str, Any]] = []

    def add(label: str, res: dict[str, Any]) -> None:
        row = {
            "case": label,
            "goodput_mbps": res["goodput_bps"] / 1e6,
            "p_fail": res["collision_probability"],
            "attempts": res["attempts"],
            "retry_drops": res["retry_drops"],
            "events": res["events"],
            "run_wall_s": res["wall_seconds"],
            "process_wall_s": res["process_wall_seconds"],
        }
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)

    def bss(n: int, standard: str, rate: float, basic: float, duration: float) -> None:
        res = run_bss(
            n,
            standard,
            rate,
            basic,
            payload_bytes=1500,
            duration_s=duration,
            warmup_s=2.0,
            seed=seed,
            qos=False,
            retry_limit=6,
        )
        add(f"bss {standard} {rate:g}/{basic:g} N={n} T={duration:g}s", res)

    for standard, (rate, basic) in _PHY.items():
        for n in (1, 2, 5, 10, 20, 50):
            for duration in (20.0, 100.0) if n in (10, 50) else (20.0,):
                bss(n, standard, rate, basic, duration)
    bss(1, "80211a", 6.0, 6.0, 20.0)
    bss(1, "80211g", 54.0, 6.0, 20.0)
    res = run_chain(
        5,
        "80211g",
        54.0,
        6.0,
        payload_bytes=1500,
        duration_s=20.0,
        warmup_s=2.0,
        seed=seed,
        retry_limit=6,
    )
    add("chain 80211g 54/6 hops=5 T=20s", res)
    return rows


def _markdown(rows: list[dict[str, Any]]) -> str:
    head = (
        "| case | goodput (Mbit/s) | P(fail) | attempts | retry drops | events "
        "| Run() wall (s) | process wall (s) |"
    )
    lines = [head, "|" + "---|" * 8]
    for r in rows:
        lines.append(
            f"| {r['case']} | {r['goodput_mbps']:.3f} | {r['p_fail']:.4f} | {r['attempts']} "
            f"| {r['retry_drops']} | {r['events']} | {r['run_wall_s']:.2f} "
            f"| {r['process_wall_s']:.2f} |"
        )
    return "\n".join(lines)


def run_wired_tcp(
    rate_mbps: float = 5.0,
    delay_ms: float = 10.0,
    queue_packets: int = 2,
    loss: float = 0.0,
    cc: str = "cubic",
    recovery: str = "prr",
    sack: bool = True,
    duration_s: float = 30.0,
    seed: int = 1,
    run: int = 1,
    warmup_s: float = 0.0,
    mss: int = 1460,
    del_ack_count: int = 2,
    del_ack_timeout_ms: float = 40.0,
    min_rto_ms: float = 200.0,
    initial_cwnd: int = 10,
    timestamps: bool = True,
    snd_buf: int = 4194304,
    rcv_buf: int = 6291456,
    extra_args: Sequence[str] = (),
    timeout: float | None = None,
    python: str = sys.executable,
    series_ms: float = 0.0,
) -> dict[str, Any]:
    """One bulk TCP flow over a wired dumbbell (wired_tcp.cc; NOTES.md "Wired bottleneck").

    sender --1000 Mbit/s, 0 ms, 1000 packets-- router --``rate_mbps``, ``delay_ms`` one way,
    ``queue_packets`` waiting at each end-- receiver, as airtcp's
    examples/wired-bottleneck.toml. ``loss`` is an independent per-packet loss on the router ->
    receiver direction. ``cc``: cubic, linuxreno, newreno, bbr (TcpBbr, paced; or an ns-3
    TypeId name); ``recovery``: "prr" (TcpPrrRecovery, ns-3's default) or "classic"
    (TcpClassicRecovery). The result has ``goodput_bps``, ``retransmissions``, ``timeouts``,
    ``fast_retransmits``, ``mean_cwnd_segments``, ``rtt_mean_s``, ``events``, ``wall_seconds``
    at the top level. ``series_ms`` > 0 passes ``--seriesMs``: the result then also has
    ``series`` (lists ``t_s``, ``cwnd_bytes``, ``pacing_rate_bps``, ``rtt_ms``, ``rx_bytes``,
    for BBR ``bbr_state``: 0 STARTUP, 1 DRAIN, 2 PROBE_BW, 3 PROBE_RTT), ``cwnd_dips_s``,
    ``min_cwnd_bytes_after_5s``, ``bbr_probe_rtt_s``, ``pacing_rate_mean_bps`` and
    ``rtt_median_s`` (NOTES.md "BBR on the wired bottleneck"). The default (0) adds no argument,
    so existing command lines and outputs are unchanged.
    """
    binary = _binary(python, "wired_tcp")
    args = [
        f"--rateMbps={rate_mbps:g}",
        f"--delayMs={delay_ms:g}",
        f"--queuePackets={queue_packets}",
        f"--loss={loss:g}",
        f"--durationS={duration_s:g}",
        f"--warmupS={warmup_s:g}",
        f"--seed={seed}",
        f"--run={run}",
        f"--cc={cc}",
        f"--recovery={recovery}",
        f"--sack={_bool(sack)}",
        f"--mss={mss}",
        f"--delAckCount={del_ack_count}",
        f"--delAckTimeoutMs={del_ack_timeout_ms:g}",
        f"--minRtoMs={min_rto_ms:g}",
        f"--initialCwnd={initial_cwnd}",
        f"--timestamps={_bool(timestamps)}",
        f"--sndBuf={snd_buf}",
        f"--rcvBuf={rcv_buf}",
    ]
    if series_ms > 0:
        args.append(f"--seriesMs={series_ms:g}")
    return _run(binary, [*args, *extra_args], timeout)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("build")
    table = sub.add_parser("table")
    table.add_argument("--seed", type=int, default=1)
    for name in ("bss", "chain"):
        p = sub.add_parser(name)
        p.add_argument("--stations" if name == "bss" else "--hops", type=int, default=5)
        p.add_argument("--standard", default="80211a")
        p.add_argument("--data-rate-mbps", type=float, default=54.0)
        p.add_argument("--basic-rate-mbps", type=float, default=6.0)
        p.add_argument("--payload-bytes", type=int, default=1500)
        p.add_argument("--duration-s", type=float, default=20.0)
        p.add_argument("--warmup-s", type=float, default=2.0)
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--retry-limit", type=int, default=6)
        p.add_argument("--queue-packets", type=int, default=100)
        p.add_argument("--qos", action="store_true")
    for name in ("bss-tcp", "chain-tcp"):
        p = sub.add_parser(name)
        if name == "chain-tcp":
            p.add_argument("--hops", type=int, default=5)
        p.add_argument("--standard", default="80211a" if name == "bss-tcp" else "80211g")
        p.add_argument("--data-rate-mbps", type=float, default=54.0)
        p.add_argument("--basic-rate-mbps", type=float, default=6.0)
        p.add_argument("--duration-s", type=float, default=20.0)
        p.add_argument("--warmup-s", type=float, default=2.0)
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--retry-limit", type=int, default=6 if name == "bss-tcp" else 7)
        p.add_argument("--queue-packets", type=int, default=100)
        p.add_argument("--cc", default="newreno")
        p.add_argument("--mss", type=int, default=1460)
        p.add_argument("--del-ack-count", type=int, default=2)
        p.add_argument("--min-rto-ms", type=float, default=200.0)
        p.add_argument("--sack", action="store_true")
        p.add_argument("--recovery", default="classic", choices=("classic", "prr"))
    p = sub.add_parser("distance")
    p.add_argument("--distance-m", type=float, default=10.0)
    p.add_argument("--standard", default="80211a")
    p.add_argument(
        "--rate-manager", default="constant", choices=("constant", "arf", "aarf", "minstrel")
    )
    p.add_argument("--data-rate-mbps", type=float, default=54.0)
    p.add_argument("--basic-rate-mbps", type=float, default=6.0)
    p.add_argument("--error-model", default="nist", choices=("nist", "yans", "table"))
    p.add_argument("--fading", default="none", choices=("none", "rayleigh"))
    p.add_argument("--duration-s", type=float, default=10.0)
    p.add_argument("--warmup-s", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--retry-limit", type=int, default=6)
    p = sub.add_parser("ht")
    p.add_argument("--standard", default="80211n", choices=("80211n", "80211ac", "80211ax"))
    p.add_argument("--mcs", type=int, default=7)
    p.add_argument("--traffic", default="udp", choices=("udp", "tcp"))
    p.add_argument(
        "--rate-manager", default="constant", choices=("constant", "minstrel-ht", "ideal")
    )
    p.add_argument("--channel-width", type=int, default=20, choices=(20, 40))
    p.add_argument("--width-mhz", type=int, choices=(20, 40, 80, 160), help="--widthMhz")
    p.add_argument("--nss", type=int, choices=(1, 2, 3, 4), help="--nss")
    p.add_argument("--gi-ns", type=int, choices=(800, 1600, 3200), help="--giNs (HE)")
    p.add_argument("--he-gi-from-config", action="store_true", help="--heGiFromConfig=1")
    p.add_argument("--short-gi", action="store_true")
    p.add_argument("--band", default="5", choices=("5", "2.4"))
    p.add_argument("--max-ampdu-bytes", type=int, default=65535)
    p.add_argument("--cc", default="cubic")
    p.add_argument("--distance-m", type=float, default=1.0)
    p.add_argument("--duration-s", type=float, default=10.0)
    p.add_argument("--warmup-s", type=float, default=2.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--run", type=int, default=1)
    p.add_argument("--queue-packets", type=int, default=100)
    p.add_argument(
        "--extra-arg", action="append", default=[], help="e.g. --extra-arg=--timestamps=0"
    )
    p = sub.add_parser("mesh")
    p.add_argument("--traffic", default="cbr", choices=("cbr", "saturating", "tcp"))
    p.add_argument("--hops", type=int, default=3)
    p.add_argument("--rate-mbps", type=float, default=2.0)
    p.add_argument("--start-s", type=float, default=1.0)
    p.add_argument("--duration-s", type=float, default=22.0)
    p.add_argument("--warmup-s", type=float, default=2.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--run", type=int, default=1)
    p.add_argument("--extra-arg", action="append", default=[])
    p = sub.add_parser("wired-tcp")
    p.add_argument("--rate-mbps", type=float, default=5.0)
    p.add_argument("--delay-ms", type=float, default=10.0)
    p.add_argument("--queue-packets", type=int, default=2)
    p.add_argument("--loss", type=float, default=0.0)
    p.add_argument("--cc", default="cubic")
    p.add_argument("--recovery", default="prr", choices=("classic", "prr"))
    p.add_argument("--duration-s", type=float, default=30.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--run", type=int, default=1)
    p.add_argument("--warmup-s", type=float, default=0.0)
    p.add_argument("--series-ms", type=float, default=0.0, help="--seriesMs (0 = off)")
    p.add_argument("--extra-arg", action="append", default=[])
    p = sub.add_parser("ht-table")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--extra-arg", action="append", default=[])
    p = sub.add_parser("vht-he-table")
    p.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--duration-s", type=float, default=10.0)
    p.add_argument("--warmup-s", type=float, default=2.0)
    p.add_argument("--extra-arg", action="append", default=[])
    args = parser.parse_args(argv)

    if args.command in ("bss-tcp", "chain-tcp"):
        tcp = {
            "cc": args.cc,
            "mss": args.mss,
            "del_ack_count": args.del_ack_count,
            "min_rto_ms": args.min_rto_ms,
            "sack": args.sack,
            "recovery": args.recovery,
            "retry_limit": args.retry_limit,
            "queue_packets": args.queue_packets,
        }
        phy = (args.standard, args.data_rate_mbps, args.basic_rate_mbps)
        if args.command == "bss-tcp":
            res = run_bss_tcp(*phy, args.duration_s, args.warmup_s, args.seed, **tcp)
        else:
            res = run_chain_tcp(args.hops, *phy, args.duration_s, args.warmup_s, args.seed, **tcp)
        print(json.dumps(res))
    elif args.command == "distance":
        res = run_distance(
            args.distance_m,
            standard=args.standard,
            rate_manager=args.rate_manager,
            data_rate_mbps=args.data_rate_mbps,
            basic_rate_mbps=args.basic_rate_mbps,
            error_model=args.error_model,
            fading=args.fading,
            duration_s=args.duration_s,
            warmup_s=args.warmup_s,
            seed=args.seed,
            retry_limit=args.retry_limit,
        )
        print(json.dumps(res))
    elif args.command == "ht":
        res = run_ht(
            standard=args.standard,
            width_mhz=args.width_mhz,
            nss=args.nss,
            gi_ns=args.gi_ns,
            he_gi_from_config=args.he_gi_from_config,
            mcs=args.mcs,
            traffic=args.traffic,
            rate_manager=args.rate_manager,
            channel_width=args.channel_width,
            short_gi=args.short_gi,
            band=args.band,
            max_ampdu_bytes=args.max_ampdu_bytes,
            cc=args.cc,
            distance_m=args.distance_m,
            duration_s=args.duration_s,
            warmup_s=args.warmup_s,
            seed=args.seed,
            run=args.run,
            queue_packets=args.queue_packets,
            extra_args=args.extra_arg,
        )
        print(json.dumps(res))
    elif args.command == "mesh":
        res = run_mesh(
            args.traffic,
            hops=args.hops,
            rate_mbps=args.rate_mbps,
            start_s=args.start_s,
            duration_s=args.duration_s,
            warmup_s=args.warmup_s,
            seed=args.seed,
            run=args.run,
            extra_args=args.extra_arg,
        )
        print(json.dumps(res))
    elif args.command == "wired-tcp":
        res = run_wired_tcp(
            rate_mbps=args.rate_mbps,
            delay_ms=args.delay_ms,
            queue_packets=args.queue_packets,
            loss=args.loss,
            cc=args.cc,
            recovery=args.recovery,
            duration_s=args.duration_s,
            seed=args.seed,
            run=args.run,
            warmup_s=args.warmup_s,
            extra_args=args.extra_arg,
            series_ms=args.series_ms,
        )
        print(json.dumps(res))
    elif args.command == "ht-table":
        print(_ht_markdown(ht_matrix(args.seed, args.extra_arg)))
    elif args.command == "vht-he-table":
        rows = vht_he_matrix(args.seeds, args.jobs, args.duration_s, args.warmup_s, args.extra_arg)
        print(_vht_he_markdown(rows, args.seeds))
    elif args.command == "build":
        for name, path in build().items():
            print(f"{name}: {path}")
    elif args.command == "table":
        print(_markdown(reference_matrix(args.seed)))
    elif args.command == "bss":
        res = run_bss(
            args.stations,
            args.standard,
            args.data_rate_mbps,
            args.basic_rate_mbps,
            args.payload_bytes,
            args.duration_s,
            args.warmup_s,
            args.seed,
            args.qos,
            args.retry_limit,
            queue_packets=args.queue_packets,
        )
        print(json.dumps(res))
    else:
        res = run_chain(
            args.hops,
            args.standard,
            args.data_rate_mbps,
            args.basic_rate_mbps,
            args.payload_bytes,
            args.duration_s,
            args.warmup_s,
            args.seed,
            args.retry_limit,
            queue_packets=args.queue_packets,
            qos=args.qos,
        )
        print(json.dumps(res))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
