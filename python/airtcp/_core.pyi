"""The native simulation core (Rust, PyO3); private: use :func:`airtcp.run`."""

from typing import Any

def run(spec_json: str, seed: int) -> tuple[str, dict[str, dict[str, list[Any]]]]:
    """Simulate the world spec ``spec_json`` (docs/world-spec.md) with ``seed``.

    Returns the summary as JSON text and the traces (name -> column -> values).
    Raises ValueError ("<field path>: <message>") if the spec is invalid.
    """
