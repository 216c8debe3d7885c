"""The canonical form of a world spec: what a run's seed and store hash derive from.

A sweep's run seed is a digest of the sweep seed and the run's canonical world spec, and its
store hash a digest of that spec, the seed and the version (``airtcp.sweep``). So the canonical
form must not change when the core gains a field: a spec that leaves a new field at its default
must read the same as before the field existed, or every stored sweep would be re-randomised.

The rule, generic over the core's JSON Schema (its copy beside the package,
``airtcp.tables.SCHEMA_FILE``):

- a field equal to its default is dropped, at any depth (a table whose every field is at its
  default is then equal to its own default and dropped too);
- except the fields of ``ALWAYS_WRITTEN``: the fields the expander wrote out in every spec
  before this rule existed. They are kept (and written with their default when absent), so the
  canonical form of every spec written before is that spec, byte for byte: stored runs keep
  their seeds and hashes. The set is frozen: a field added from now on is not in it.

So a spec with its defaults written out and the same spec without them have one canonical form
(``python/tests/test_canonical.py`` checks it for every example and golden scenario).
"""

from __future__ import annotations

import copy
import json
from typing import Any

from airtcp import tables as _tables

__all__ = [
    "ALWAYS_WRITTEN",
    "bounds_text",
    "SCHEMA_FILE",
    "canonical",
    "canonical_json",
    "check_value",
    "core_table",
    "schema_text",
]

# The fields the expander wrote in every table of their kind, by the table's place: its path
# from the spec's root (`[]` for every element of an array), with `{variant}` for a table whose
# fields depend on its variant (`_variant`). Measured on the 1,614 distinct specs the test suite
# (slow tests included) and the examples built before the rule above (issue 33), every one of
# which is its own canonical form. Frozen: never add a field here.
_TCP_FLOW = frozenset(  # a tcp_bulk or tcp_file flow
    {
        "ac",
        "dst",
        "file_bytes",
        "kind",
        "payload_bytes",
        "rate_bps",
        "src",
        "start_ns",
        "stop_ns",
        "tcp",
    }
)
ALWAYS_WRITTEN: dict[str, frozenset[str]] = {
    "": frozenset(
        {
            "blocked_radio_links",
            "channel",
            "duration_ns",
            "flows",
            "nodes",
            "routes",
            "traces",
            "warmup_ns",
            "wifi",
            "wired_links",
        }
    ),
    "channel.error{ber}": frozenset({"ber", "kind"}),
    "channel.error{fer}": frozenset({"fer", "kind"}),
    "channel.error{gilbert}": frozenset({"bad_ms", "good_ms", "kind", "loss_bad", "loss_good"}),
    "channel.error{interferer}": frozenset({"kind", "off_ms", "on_ms"}),
    "channel.error{none}": frozenset({"kind"}),
    "channel.matrix": frozenset({"cs", "rx"}),
    "channel.radio": frozenset(
        {
            "capture",
            "cca_threshold_dbm",
            "error_model",
            "fading",
            "noise_figure_db",
            "path_loss",
            "preamble_detection",
            "rx_sensitivity_by_rate_dbm",
            "rx_sensitivity_dbm",
            "tx_power_by_rate_dbm",
            "tx_power_dbm",
        }
    ),
    "channel.radio.capture": frozenset({"margin_db", "window_ns"}),
    "channel.radio.fading{doppler}": frozenset({"carrier_hz", "doppler_hz", "kind"}),
    "channel.radio.fading{nakagami}": frozenset({"coherence_ns", "kind", "m"}),
    "channel.radio.fading{none}": frozenset({"kind"}),
    "channel.radio.fading{rayleigh}": frozenset({"coherence_ns", "kind"}),
    "channel.radio.fading{tgn}": frozenset({"doppler_hz", "kind", "model"}),
    "channel.radio.path_loss{friis}": frozenset({"frequency_hz", "kind", "system_loss_db"}),
    "channel.radio.path_loss{log-distance}": frozenset(
        {"exponent", "kind", "reference_distance_m", "reference_loss_db"}
    ),
    "channel.radio.preamble_detection": frozenset({"min_rssi_dbm", "snr_db"}),
    "channel{radio}": frozenset({"radio"}),
    "channel{range}": frozenset(
        {"cs_range_m", "error", "matrix", "preamble_detection", "rx_range_m"}
    ),
    "flows[].clap": frozenset(
        {
            "feedback_interval_ms",
            "max_nack_ranges",
            "mss_bytes",
            "queue_target_frames",
            "send_buffer_segments",
        }
    ),
    "flows[].on_off": frozenset({"distribution", "off_mean_ns", "on_mean_ns", "pareto_shape"}),
    "flows[].tcp": frozenset(
        {
            "ack_every",
            "cc",
            "clock_granularity_ms",
            "delack_timeout_ms",
            "hystart",
            "initial_cwnd",
            "initial_rto_ms",
            "limited_transmit",
            "max_rto_ms",
            "min_rto_ms",
            "mss_bytes",
            "rcv_buf_bytes",
            "recovery",
            "snd_buf_bytes",
            "timestamps",
        }
    ),
    "flows[]{clap_file}": frozenset(
        {
            "ac",
            "clap",
            "dst",
            "file_bytes",
            "kind",
            "payload_bytes",
            "rate_bps",
            "report_interval_ns",
            "src",
            "start_ns",
            "stop_ns",
        }
    ),
    "flows[]{tcp_bulk}": _TCP_FLOW,
    "flows[]{tcp_file}": _TCP_FLOW,
    "flows[]{udp_cbr}": frozenset(
        {"ac", "dst", "kind", "payload_bytes", "rate_bps", "src", "start_ns", "stop_ns"}
    ),
    "flows[]{udp_onoff}": frozenset(
        {"ac", "dst", "kind", "on_off", "payload_bytes", "rate_bps", "src", "start_ns", "stop_ns"}
    ),
    "flows[]{udp_poisson}": frozenset(
        {"ac", "dst", "kind", "payload_bytes", "rate_bps", "src", "start_ns", "stop_ns"}
    ),
    "flows[]{udp_saturating}": frozenset(
        {"ac", "dst", "kind", "payload_bytes", "rate_bps", "src", "start_ns", "stop_ns"}
    ),
    "mesh": frozenset(
        {
            "active_path_timeout_tu",
            "alm_retry",
            "alm_retry_interval_ms",
            "beacon_interval_tu",
            "max_preq_retries",
            "metric",
        }
    ),
    "nodes[]": frozenset({"name", "position_m", "role", "wifi"}),
    "nodes[].mobility.points[]": frozenset({"position_m", "time_ns"}),
    "nodes[].mobility{constant-velocity}": frozenset({"kind", "start_ns", "velocity_mps"}),
    "nodes[].mobility{random-waypoint}": frozenset(
        {
            "area_max_m",
            "area_min_m",
            "kind",
            "pause_ns",
            "speed_max_mps",
            "speed_min_mps",
            "steady_state",
        }
    ),
    "nodes[].mobility{waypoints}": frozenset({"kind", "points"}),
    "traces": frozenset(
        {"frames", "mac_tx", "packets", "positions", "rates", "receptions", "tcp", "tcp_segments"}
    ),
    "wifi": frozenset(
        {
            "access",
            "aifsn",
            "basic_rate_mbps",
            "cw_max",
            "cw_min",
            "erp_mixed",
            "long_retry_limit",
            "preamble",
            "queue_limit_packets",
            "rate_control",
            "rts_threshold_bytes",
            "short_retry_limit",
            "standard",
        }
    ),
    "wifi.ht": frozenset(
        {
            "aggregation",
            "ampdu",
            "band_ghz",
            "channel_width_mhz",
            "mcs",
            "mpdu_retries",
            "ppdu_attempts",
            "short_gi",
            "streams",
        }
    ),
    "wifi.qdisc{codel}": frozenset(
        {"codel_interval_ms", "codel_target_ms", "kind", "limit_packets"}
    ),
    "wifi.qdisc{pfifo}": frozenset(
        {"codel_interval_ms", "codel_target_ms", "kind", "limit_packets"}
    ),
    "wifi.txq": frozenset(
        {
            "airtime_fairness",
            "aql",
            "aql_high_us",
            "aql_low_us",
            "aql_threshold_us",
            "interval_ms",
            "limit_packets",
            "quantum_bytes",
            "target_ms",
        }
    ),
    "wired_links[]": frozenset(
        {"a", "b", "delay_ns", "loss", "queue_limit_packets", "rate_bps", "reverse_loss"}
    ),
}


def _variant(path: str, table: dict[str, Any]) -> str:
    """The place of ``table`` in ALWAYS_WRITTEN: its path, and its variant where the expander
    wrote different fields for different variants: a tagged table's `kind`, the channel's
    model (the range model's fields or the radio's)."""
    kind = table.get("kind")
    if isinstance(kind, str):
        return f"{path}{{{kind}}}"
    if path == "channel":
        return "channel{radio}" if table.get("radio") is not None else "channel{range}"
    return path


# The core's schema, kept beside the package (airtcp.tables.SCHEMA_FILE).
SCHEMA_FILE = _tables.SCHEMA_FILE


def schema_text() -> str:
    """The core's world-spec schema as SCHEMA_FILE holds it (sorted keys, indent 1)."""
    from airtcp import _core  # the native module; imported here so configs work without it

    return json.dumps(json.loads(_core.world_spec_schema()), indent=1, sort_keys=True) + "\n"


def _schema() -> dict[str, Any]:
    return _tables.schema_dict()


def core_table(name: str) -> dict[str, Any]:
    """The schema of the core's table ``name`` (a ``$defs`` entry: "WifiSpec", "TcpSpec" ...)."""
    table: dict[str, Any] = _schema()["$defs"][name]
    return table


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = _schema()["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def _object_schema(node: dict[str, Any], value: dict[str, Any]) -> dict[str, Any] | None:
    """The object schema that describes ``value`` (an Option's table, a tagged variant), or
    None when the schema has no properties for it."""
    node = _resolve(node)
    if "properties" in node:
        tag = node["properties"].get("kind", {}).get("const")
        return node if tag is None or value.get("kind") == tag else None
    for alt in node.get("anyOf", []) + node.get("oneOf", []):
        if (found := _object_schema(alt, value)) is not None:
            return found
    return None


def _items_schema(node: dict[str, Any]) -> dict[str, Any] | None:
    node = _resolve(node)
    for alt in [node, *node.get("anyOf", [])]:
        alt = _resolve(alt)
        items = alt.get("items")
        if isinstance(items, dict):
            return items
    return None


def _value(value: Any, node: dict[str, Any], path: str) -> Any:
    if isinstance(value, dict):
        obj = _object_schema(node, value)
        return value if obj is None else _table(value, obj, path)
    if isinstance(value, list):
        items = _items_schema(node)
        if items is None:
            return value
        return [_value(v, items, path + "[]") for v in value]
    return value


def _table(table: dict[str, Any], obj: dict[str, Any], path: str) -> dict[str, Any]:
    props: dict[str, Any] = obj["properties"]
    always = ALWAYS_WRITTEN.get(_variant(path, table), frozenset())
    # Under a TCP profile a field's default is the profile's value: the core fills what is
    # left out from the profile, so a field equal to the schema's default but not to the
    # profile's must stay.
    profile = props.get("profile", {}).get("x-profiles", {}).get(table.get("profile"), {})
    out: dict[str, Any] = {}
    for key, value in table.items():
        sub = props.get(key)
        if sub is None:  # not the core's: left for the core to refuse by name
            out[key] = value
            continue
        # _value leaves a scalar as it is: called for tables and arrays only (a world of
        # 1000 nodes has some 17,000 scalars).
        if isinstance(value, dict | list):
            value = _value(value, sub, f"{path}.{key}" if path else key)
        if key not in always and (key in profile or "default" in sub):
            default = profile[key] if key in profile else sub["default"]
            if isinstance(default, dict | list):
                default = _value(default, sub, f"{path}.{key}" if path else key)
            if _same(value, default):
                continue
        out[key] = value
    for key in always - table.keys():
        sub = props.get(key)
        if sub is not None and (key in profile or "default" in sub):
            where = f"{path}.{key}" if path else key
            # The value the core would take: the profile's, else the default.
            default = profile[key] if key in profile else sub["default"]
            out[key] = _value(copy.deepcopy(default), sub, where)  # never the schema's
    return out


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values: ``true`` is not ``1`` (Python's ``==`` says it is), 1 is 1.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) or (_is_number(a) and _is_number(b)) if a == b else False


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


# An integer format's own bounds (u8: 0..=255) say nothing a reader needs.
_NATURAL = {"uint8": (0, 255), "uint16": (0, 65535), "uint32": (0, None), "uint64": (0, None)}


def bounds_text(node: dict[str, Any]) -> str:
    """A number's declared bounds as a reader wants them: " 2..=1000000", " >= 0, < 1",
    " > 0", or "" (none beyond its integer format's own)."""
    lo = node.get("minimum", node.get("exclusiveMinimum"))
    hi = node.get("maximum", node.get("exclusiveMaximum"))
    natural = _NATURAL.get(node.get("format", ""), (None, None))
    lo = None if lo == natural[0] else lo
    hi = None if hi == natural[1] else hi
    left = ">" if "exclusiveMinimum" in node else ">="
    right = "<" if "exclusiveMaximum" in node else "<="
    if lo is not None and hi is not None:
        return f" {lo}..={hi}" if (left, right) == (">=", "<=") else f" {left} {lo}, {right} {hi}"
    if lo is not None:
        return f" {left} {lo}"
    return "" if hi is None else f" {right} {hi}"


def check_value(value: Any, prop: dict[str, Any]) -> tuple[str, str] | None:
    """What is wrong with ``value`` for a field of schema ``prop`` as a scenario file gives it
    (a passed-through field, ``config.models._PassThrough``): None, or (what is wrong, what is
    allowed). Checks the type, a name family's names and constant bounds; what depends on
    other fields is the core's to check."""
    node, nullable = prop, False
    alts = node.get("anyOf") or []
    if any(a.get("type") == "null" for a in alts):
        nullable = True
        node = next(a for a in alts if a.get("type") != "null")
    node = _resolve(node)
    kinds = node.get("type", "")
    if isinstance(kinds, list):
        nullable = nullable or "null" in kinds
        kinds = next((k for k in kinds if k != "null"), "")
    unset = ", or unset" if nullable else ""
    names = _tables.family_names(node)
    if names:
        if value in names and isinstance(value, str):
            return None
        return "not an allowed value", ", ".join(f'"{n}"' for n in names) + unset
    if kinds == "boolean":
        return None if isinstance(value, bool) else ("wrong type", "true or false" + unset)
    if kinds == "string":
        return None if isinstance(value, str) else ("wrong type", "a string" + unset)
    if kinds in ("integer", "number"):
        ok = isinstance(value, int) if kinds == "integer" else _is_number(value)
        words = "an integer" if kinds == "integer" else "a number"
        allowed = words + bounds_text(node) + unset
        if isinstance(value, bool) or not ok:
            return "wrong type", allowed
        lo = node.get("minimum", node.get("exclusiveMinimum"))
        hi = node.get("maximum", node.get("exclusiveMaximum"))
        below = lo is not None and (value <= lo if "exclusiveMinimum" in node else value < lo)
        above = hi is not None and (value >= hi if "exclusiveMaximum" in node else value > hi)
        return ("out of range", allowed) if below or above else None
    return None  # a table or an array: the core checks it


def canonical(spec: dict[str, Any]) -> dict[str, Any]:
    """The canonical form of a world spec (a new dict; ``spec`` is not changed)."""
    return _table(spec, _schema(), "")


def canonical_json(spec: dict[str, Any]) -> str:
    """The canonical form as JSON: sorted keys, no whitespace."""
    return json.dumps(canonical(spec), sort_keys=True, separators=(",", ":"))
