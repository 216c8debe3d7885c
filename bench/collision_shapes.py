"""Benchmark: the shapes of collisions in a saturated 802.11b BSS, airtcp beside ns-3 3.44,
frame by frame (issue 37, item 5: the 200-station gap).

    .venv/bin/python bench/collision_shapes.py                      # 200 stations, 6 s, seed 1
    .venv/bin/python bench/collision_shapes.py --stations 50 200
    .venv/bin/python bench/collision_shapes.py --ns3-trace phy.txt   # a --phyTrace already made

The same seeds cannot give the same frames, so the two are compared by distributions, over the
frames that start after the warm-up (1 s):

- busy periods: data frames whose airtimes overlap form one period; the share of data frames
  sent in periods of 1, 2, 3 and 4 or more frames (the collision probability is the share in
  2 or more), and the largest spread of start times within a period (a collision of frames
  that start in different slots would show here);
- each station's attempts by backoff stage (0: a frame's first attempt; a retransmission
  carries the Retry bit, so stage k is the k-th retransmission), and the idle slots that
  passed before each: the medium's idle time between the station's previous frame and this
  one, less DIFS (50 us) at each idle period, in 20-us slots, i.e. the backoff it counted
  down (airtcp's mac_trace also gives the drawn value);
- the first attempt of a frame that follows a frame given up at the retry limit (stage 6
  failed: 7 attempts): the idle slots before it, and the share below 32 (a draw from CWmin).

airtcp: the range model with preamble detection (ns-3's rule with equal powers, section 19 of
docs/validation.md), its mac_tx trace. ns-3: bench/ns3/bss_saturation with --phyTrace (every
PPDU's start, WifiPhy PhyTxPsduBegin), built by bench/ns3/build.sh. Findings in
docs/validation.md section 27.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import airtcp

HERE = Path(__file__).resolve().parent
DIFS_NS, SLOT_NS = 50_000, 20_000
WARMUP_S = 1.0


Frame = tuple[int, int, str, int, bool]


def airtcp_frames(stations: int, duration_s: float, seed: int) -> list[Frame]:
    """(start_ns, end_ns, kind 'D'/'A'/'O', node, retry) of every frame airtcp sent."""
    r = airtcp.run(
        {
            "name": f"shapes-{stations}",
            "stations": stations,
            "standard": "80211b",
            "data_rate_mbps": 11.0,
            "basic_rate_mbps": 1.0,
            "payload_bytes": 1500,
            "duration_s": duration_s,
            "warmup_s": WARMUP_S,
            "mac": {"short_retry_limit": 6, "queue_limit_packets": 100},
            "channel": {"preamble_detection": True},
            "traces": {"mac_tx": True},
        },
        seed=seed,
    )
    t = r.traces["mac_tx"].to_pydict()
    kinds = {"data": "D", "ack": "A"}
    cols = (t["start_ns"], t["end_ns"], t["kind"], t["node"], t["retry"])
    return [(s, e, kinds.get(k, "O"), n, bool(r)) for s, e, k, n, r in zip(*cols, strict=True)]


def ns3_frames(stations: int, duration_s: float, seed: int) -> list[Frame]:
    """The same from ns-3's bss_saturation, through its --phyTrace."""
    binary = HERE / "ns3" / "build" / "bss_saturation"
    if not binary.exists():
        subprocess.run(["bash", str(HERE / "ns3" / "build.sh"), "bss_saturation"], check=True)
    with tempfile.TemporaryDirectory() as tmp:
        trace = Path(tmp) / "phy.txt"
        subprocess.run(
            [
                str(binary),
                f"--stations={stations}",
                "--standard=80211b",
                "--dataRateMbps=11",
                "--basicRateMbps=1",
                "--payloadBytes=1500",
                f"--durationS={duration_s:g}",
                f"--warmupS={WARMUP_S:g}",
                f"--seed={seed}",
                "--retryLimit=6",
                f"--phyTrace={trace}",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        return read_ns3_trace(trace)


def read_ns3_trace(path: Path) -> list[Frame]:
    out = []
    for line in path.read_text().splitlines():
        start, node, kind, retry, dur = line.split()
        out.append((int(start), int(start) + int(dur), kind, int(node), retry == "1"))
    return out


def shapes(frames: list[Frame], from_ns: int) -> dict[str, Any]:
    """The distributions of the module's docstring over the frames starting at or after
    ``from_ns``."""
    frames = sorted(frames)
    periods: list[list[Frame]] = []
    for f in frames:
        if f[2] != "D":
            continue
        if periods and f[0] < max(g[1] for g in periods[-1]):
            periods[-1].append(f)
        else:
            periods.append([f])
    size = {(f[0], f[3]): len(p) for p in periods for f in p}
    attempts: Counter[int] = Counter()
    spread = 0
    for p in periods:
        if p[0][0] >= from_ns:
            attempts[min(len(p), 4)] += len(p)
            spread = max(spread, max(f[0] for f in p) - min(f[0] for f in p))
    # The medium's busy periods (every frame), to count the idle slots between two instants.
    busy: list[list[int]] = []
    for f in frames:
        if busy and f[0] <= busy[-1][1]:
            busy[-1][1] = max(busy[-1][1], f[1])
        else:
            busy.append([f[0], f[1]])
    starts = [b[0] for b in busy]

    def idle_slots(t0: int, t1: int) -> int:
        i, total, at = bisect.bisect_right(starts, t0), 0, t0
        while i < len(starts) and starts[i] < t1:
            total += max(0, (starts[i] - at - DIFS_NS) // SLOT_NS)
            at, i = busy[i][1], i + 1
        return total + max(0, (t1 - at - DIFS_NS) // SLOT_NS)

    by_stage: dict[int, list[int]] = defaultdict(list)
    after_drop: list[int] = []
    by_node: dict[int, list[Frame]] = defaultdict(list)
    for f in frames:
        if f[2] == "D":
            by_node[f[3]].append(f)
    for fs in by_node.values():
        stage = 0
        for prev, f in itertools.pairwise(fs):
            prev_stage, stage = stage, (stage + 1 if f[4] else 0)
            if f[0] < from_ns:
                continue
            slots = idle_slots(prev[1], f[0])
            by_stage[stage].append(slots)
            if stage == 0 and prev_stage == 6 and size[(prev[0], prev[3])] > 1:
                after_drop.append(slots)
    total = sum(attempts.values())
    return {
        "attempts": total,
        "collision_probability": (total - attempts[1]) / total if total else float("nan"),
        "attempt_share": {k: attempts[k] / total for k in (1, 2, 3, 4)},
        "start_spread_ns": spread,
        "stage_share": {k: len(v) / total for k, v in sorted(by_stage.items())},
        "stage_idle_slots": {k: sum(v) / len(v) for k, v in sorted(by_stage.items())},
        "after_drop": after_drop,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stations", type=int, nargs="*", default=[200])
    ap.add_argument("--duration-s", type=float, default=6.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ns3-trace", type=Path, help="read ns-3's --phyTrace from this file")
    a = ap.parse_args()
    from_ns = int(WARMUP_S * 1e9)
    for n in a.stations:
        ns3 = read_ns3_trace(a.ns3_trace) if a.ns3_trace else ns3_frames(n, a.duration_s, a.seed)
        rows = {
            "airtcp": shapes(airtcp_frames(n, a.duration_s, a.seed), from_ns),
            "ns-3": shapes(ns3, from_ns),
        }
        print(f"== {n} stations, 802.11b 11 Mbit/s, {a.duration_s:g} s, seed {a.seed}")
        for name, s in rows.items():
            share = "  ".join(f"{k}:{v:.3f}" for k, v in s["attempt_share"].items())
            print(
                f"{name:>7}: attempts {s['attempts']:,}  p {s['collision_probability']:.4f}  "
                f"by period size {share}  largest start spread {s['start_spread_ns']} ns"
            )
            stages = "  ".join(
                f"{k}:{s['stage_share'][k]:.3f}/{s['stage_idle_slots'][k]:.0f}"
                for k in s["stage_share"]
            )
            print(f"{'':>9}stage: share of attempts / mean idle slots before: {stages}")
            drop = s["after_drop"]
            low = sum(1 for v in drop if v < 32)
            mean = sum(drop) / len(drop) if drop else float("nan")
            print(
                f"{'':>9}after a frame given up: {len(drop)} first attempts, "
                f"{mean:.1f} idle slots before (mean), {low} below 32"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
