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
