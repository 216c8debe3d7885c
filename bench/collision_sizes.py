"""Benchmark: how many frames start together in a saturated 802.11a BSS as it grows, and who
sends the frames that go alone (issue 37, docs/validation.md section 27).

    .venv/bin/python bench/collision_sizes.py                        # 10 ... 5000 stations
    .venv/bin/python bench/collision_sizes.py --stations 1000 2000 --duration-s 6

For each number of stations N, the example BSS (examples/bss-udp-saturation.toml: saturated
UDP to the AP, the range model) runs with the mac_tx trace, and over the data frames that start
after the warm-up it prints:

- frames per start instant: data frames that start at the same nanosecond, on average (1: every
  frame alone; a collision of k frames counts k);
- the collision probability of the run's summary;
- lone frames, and how many of them come from a station that sent a frame of the collision just
  before (a multi-frame start); beside it the share a station picked at random would have (the
  mean size of those collisions over N).

A collider does not receive its own collision, so after its ACK timeout it counts DIFS where
every other station waits EIFS (IEEE 802.11-2020 10.3.2.3.7); the last column shows how often
that head start lets it send alone. The cost of a run grows with the frames per start instant
(each collider is a station that changes state): section 27, "Per-edge work".
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path
from typing import Any

import airtcp

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "bss-udp-saturation.toml"


def column(table: Any, name: str) -> list[Any]:
    """One column of a trace table as a list (a dict of lists or a pyarrow table)."""
    return list(table[name]) if isinstance(table, dict) else table.column(name).to_pylist()


def measure(stations: int, duration_s: float, warmup_s: float, seed: int) -> dict[str, float]:
    result = airtcp.run(
        EXAMPLE,
        seed=seed,
        overrides={
            "stations": stations,
            "duration_s": warmup_s + duration_s,
            "warmup_s": warmup_s,
            "traces.mac_tx": True,
        },
    )
    t = result.traces["mac_tx"]
    warmup_ns = round(warmup_s * 1e9)
    starts: dict[int, list[int]] = defaultdict(list)
    for start, node, kind in zip(
        column(t, "start_ns"), column(t, "node"), column(t, "kind"), strict=True
    ):
        if kind == "data" and start >= warmup_ns:
            starts[start].append(node)
    lone = lone_by_collider = 0
    collision_sizes: list[int] = []
    previous: set[int] = set()
    for start in sorted(starts):
        senders = starts[start]
        if len(senders) == 1:
            lone += 1
            lone_by_collider += senders[0] in previous
        else:
            previous = set(senders)
            collision_sizes.append(len(senders))
    frames = sum(len(s) for s in starts.values())
    mean_collision = sum(collision_sizes) / len(collision_sizes) if collision_sizes else 0.0
    return {
        "frames_per_start": frames / max(1, len(starts)),
        "collision_probability": result.summary["totals"]["collision_probability"],
        "lone": lone,
        "lone_by_collider": lone_by_collider,
        "random_share": mean_collision / stations,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stations", type=int, nargs="*", default=[10, 50, 200, 1000, 2000, 5000])
    ap.add_argument("--duration-s", type=float, default=5.0, help="measured seconds")
    ap.add_argument("--warmup-s", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    print(
        f"{'stations':>8} {'frames/start':>12} {'p':>7} {'lone':>7} "
        f"{'by a collider':>14} {'at random':>10}"
    )
    for n in a.stations:
        m = measure(n, a.duration_s, a.warmup_s, a.seed)
        share = m["lone_by_collider"] / max(1, m["lone"])
        print(
            f"{n:>8} {m['frames_per_start']:>12.2f} {m['collision_probability']:>7.4f} "
            f"{m['lone']:>7,} {m['lone_by_collider']:>7,} ({share:4.0%}) {m['random_share']:>10.2%}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
