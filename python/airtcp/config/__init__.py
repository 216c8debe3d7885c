"""Scenarios: the user's description of a run, validated, and expanded into the world spec.

A scenario is a TOML file (or a dict) with a few top-level knobs (``stations``, ``standard``,
``duration_s``, ``traffic``, ``cc`` ...) and optional tables (``[mac]``, ``[tcp]``,
``[channel]``, ``[[nodes]]``, ``[[links]]``, ``[[routes]]``, ``[[flows]]``, ``[traces]``);
docs/scenarios.md is the reference.
:meth:`Scenario.to_world_spec` expands it into the explicit world spec of docs/world-spec.md:
generated nodes with positions, node indices, static routes, one flow per source, integer
nanoseconds and bit/s.

Every invalid input raises :class:`ScenarioError` whose message lists each problem as
``<dotted.field.path>: <what is wrong> (got <value>; allowed: <what>)``.

Modules: :mod:`~airtcp.config.limits` (upper bounds and name lists),
:mod:`~airtcp.config.errors` (:class:`ScenarioError` and how problems are worded),
:mod:`~airtcp.config.models` (the pydantic models), :mod:`~airtcp.config.expand` (scenario ->
world spec), :mod:`~airtcp.config.routes` (who hears whom, computed routes) and
:mod:`~airtcp.config.load` (TOML files and ``--set`` overrides) with
:mod:`~airtcp.config.scan` (the bounds of a TOML text, checked before it is parsed). Import from
this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from airtcp.config.errors import ScenarioError
from airtcp.config.expand import default_basic_rate_mbps, default_data_rate_mbps
from airtcp.config.limits import (
    CC_NAMES,
    MAX_MSS_BYTES,
    MAX_PAYLOAD_BYTES,
    RECOVERY_NAMES,
)
from airtcp.config.limits import MAX_CBR_PACKETS_PER_S as MAX_CBR_PACKETS_PER_S
from airtcp.config.limits import MAX_CBR_RATE_MBPS as MAX_CBR_RATE_MBPS
from airtcp.config.limits import MAX_CLAP_MSS_BYTES as MAX_CLAP_MSS_BYTES
from airtcp.config.limits import MAX_CLAP_SEGMENTS as MAX_CLAP_SEGMENTS
from airtcp.config.limits import MAX_DEPTH as MAX_DEPTH
from airtcp.config.limits import MAX_DISTANCE_M as MAX_DISTANCE_M
from airtcp.config.limits import MAX_FILE_BYTES as MAX_FILE_BYTES
from airtcp.config.limits import MAX_FLOWS as MAX_FLOWS
from airtcp.config.limits import MAX_INITIAL_CWND as MAX_INITIAL_CWND
from airtcp.config.limits import MAX_LINK_RATE_MBPS as MAX_LINK_RATE_MBPS
from airtcp.config.limits import MAX_NODES as MAX_NODES
from airtcp.config.limits import MAX_QUEUE_PACKETS as MAX_QUEUE_PACKETS
from airtcp.config.limits import MAX_REPORT_INTERVALS as MAX_REPORT_INTERVALS
from airtcp.config.limits import MAX_TIME_MS as MAX_TIME_MS
from airtcp.config.limits import MAX_TIME_S as MAX_TIME_S
from airtcp.config.limits import MAX_TOML_BYTES as MAX_TOML_BYTES
from airtcp.config.limits import MAX_TOML_ITEMS as MAX_TOML_ITEMS
from airtcp.config.load import (
    apply_overrides,
    load,
    load_toml,
    set_dotted,
)
from airtcp.config.load import apply_value_overrides as apply_value_overrides
from airtcp.config.load import check_plain as check_plain
from airtcp.config.load import parse_override_value as parse_override_value

# The models are pydantic's: imported on first use of one of their names (PEP 562), so that a
# run validated by airtcp.config.plain never imports pydantic.
_MODEL_NAMES = frozenset(
    {
        "ChannelConfig",
        "ClapConfig",
        "ErrorBer",
        "ErrorFer",
        "ErrorGilbert",
        "ErrorInterferer",
        "ErrorNone",
        "FlowConfig",
        "FlowKind",
        "HtConfig",
        "LinkConfig",
        "MacConfig",
        "MatrixConfig",
        "MeshConfig",
        "NodeConfig",
        "RouteConfig",
        "Scenario",
        "Standard",
        "TcpConfig",
        "TracesConfig",
    }
)

if TYPE_CHECKING:
    from airtcp.config.models import (
        ChannelConfig,
        ErrorBer,
        ErrorFer,
        ErrorGilbert,
        ErrorInterferer,
        ErrorNone,
        FlowConfig,
        HtConfig,
        LinkConfig,
        MacConfig,
        MatrixConfig,
        MeshConfig,
        NodeConfig,
        RouteConfig,
        Scenario,
        TcpConfig,
        TracesConfig,
    )
    from airtcp.config.models import ClapConfig as ClapConfig
    from airtcp.config.models import FlowKind as FlowKind
    from airtcp.config.models import Standard as Standard


def __getattr__(name: str) -> Any:
    if name in _MODEL_NAMES:
        from airtcp.config import models

        value = getattr(models, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# The same names as when this package was a single module; the redundant aliases above
# re-export the other public names it had (limits, ClapConfig, check_plain ...).
__all__ = [
    "CC_NAMES",
    "MAX_MSS_BYTES",
    "MAX_PAYLOAD_BYTES",
    "RECOVERY_NAMES",
    "ChannelConfig",
    "ErrorBer",
    "ErrorFer",
    "ErrorGilbert",
    "ErrorInterferer",
    "ErrorNone",
    "FlowConfig",
    "LinkConfig",
    "HtConfig",
    "MacConfig",
    "MatrixConfig",
    "MeshConfig",
    "NodeConfig",
    "RouteConfig",
    "Scenario",
    "ScenarioError",
    "TcpConfig",
    "TracesConfig",
    "apply_overrides",
    "default_basic_rate_mbps",
    "default_data_rate_mbps",
    "load",
    "load_toml",
    "set_dotted",
]
