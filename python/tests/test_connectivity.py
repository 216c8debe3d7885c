"""Connectivity: the scenario layer and the core agree on who hears whom. A station Python
accepts as in range must be in range in the core too; never a station that silently sends
nothing."""

from __future__ import annotations

import airtcp


def test_stations_exactly_at_the_range_all_send(examples_dir):
    # Three stations on a 10 m circle with a 10 m range: the generated positions (cos/sin,
    # rounded to the nanometre) put two of them a fraction of a nanometre beyond 10 m. Before
    # the core compared with the same slack as Python, sta2 and sta3 sent nothing.
    result = airtcp.run(
        examples_dir / "bss-udp-saturation.toml",
        overrides={
            "stations": 3,
            "spacing_m": 10,
            "channel.rx_range_m": 10,
            "duration_s": 1.0,
            "warmup_s": 0.2,
        },
    )
    sent = {f["src"]: f["sent_packets"] for f in result.summary["flows"]}
    assert set(sent) == {"sta1", "sta2", "sta3"}
    assert all(n > 0 for n in sent.values()), sent


def test_the_binary_connectivity_is_the_json_one_on_random_topologies() -> None:
    # connectivity_bytes (what the scenario layer reads: routes without neighbour lists,
    # neighbours as bits) against connectivity (the lists): the same neighbours and next hops
    # on random positions, roles, wires and blocked pairs.
    import json
    import random

    from airtcp import _core
    from airtcp.config.routes import connectivity

    rng = random.Random(5)
    for case in range(40):
        n = rng.randint(2, 30)
        roles = ["ap", "sta", "adhoc", "host", "mesh"][: 3 if case % 2 else 5]
        nodes = []
        for i in range(n):
            role = rng.choice(roles)
            nodes.append(
                {
                    "name": f"n{i}",
                    "position_m": [rng.uniform(0, 150), rng.uniform(0, 40), 0.0],
                    "wifi": role != "host",
                    "role": role,
                }
            )
        wired = [
            {"a": a, "b": b, "rate_bps": 10**8, "delay_ns": 10**6}
            for a, b in (rng.sample(range(n), 2) for _ in range(rng.randint(0, 3)))
        ]
        topology = {
            "nodes": nodes,
            "channel": {"rx_range_m": 30.0, "cs_range_m": 45.0},
            "wired_links": wired,
            "blocked_radio_links": [rng.sample(range(n), 2) for _ in range(rng.randint(0, 4))],
        }
        lists = json.loads(_core.connectivity(json.dumps(topology)))
        binary = connectivity(topology)
        for u in range(n):
            assert binary.neighbours(u) == set(lists["neighbours"][u]), (case, u)
            for d in range(n):
                want = lists["next_hop"][u][d]
                assert binary.next_hop(u, d) == (-1 if want is None else want), (case, u, d)
