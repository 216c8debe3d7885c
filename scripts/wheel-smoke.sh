#!/usr/bin/env bash
# Build airtcp's abi3 wheel with maturin, install it into a fresh venv in a temporary directory
# from PyPI (constraints.txt's pins) with no Rust toolchain on PATH, and smoke-test it there:
# `airtcp --version`, a run (its summary equal to the editable install's), the Gymnasium
# environments by id from a string, and `pip check`. Needs scripts/setup.sh's .venv (maturin is
# a dev dependency); scripts/test.sh calls it. WHEEL_SMOKE_KEEP=1 keeps the temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WORK=$(mktemp -d "${TMPDIR:-/tmp}/airtcp-wheel.XXXXXX")
if [ "${WHEEL_SMOKE_KEEP:-0}" = 1 ]; then
  echo "keeping $WORK"
else
  trap 'rm -rf "$WORK"' EXIT
fi
fail() { echo "wheel smoke test: FAILED: $*" >&2; exit 1; }

# The release profile of the editable install (scripts/setup.sh) and the same interpreter, so
# cargo reuses its build and the wheel's core is the one the tests ran.
echo "-- maturin build --release (abi3 wheel)"
.venv/bin/maturin build --release --quiet --interpreter .venv/bin/python --out "$WORK/dist"
shopt -s nullglob
wheels=("$WORK"/dist/airtcp-*-abi3-*.whl)
[ "${#wheels[@]}" = 1 ] || fail "expected one abi3 wheel in $WORK/dist, found: $(ls "$WORK/dist")"
WHEEL=${wheels[0]}
echo "   $(basename "$WHEEL") ($(du -k "$WHEEL" | cut -f1) KiB)"

# A PATH without the directories that hold cargo, rustc or rustup (~/.cargo/bin), and nothing
# that points Python at the source tree.
clean_path=""
IFS=: read -r -a dirs <<<"$PATH"
for d in "${dirs[@]}"; do
  [ -n "$d" ] || continue
  [ -e "$d/cargo" ] || [ -e "$d/rustc" ] || [ -e "$d/rustup" ] && continue
  clean_path=${clean_path:+$clean_path:}$d
done
VENV=$WORK/venv
.venv/bin/python -m venv "$VENV" # a venv from a venv uses the base interpreter
sandbox() {
  (cd "$WORK" && env -u PYTHONPATH -u PYTHONHOME -u VIRTUAL_ENV -u CARGO_HOME -u RUSTUP_HOME \
    PATH="$VENV/bin:$clean_path" "$@")
}
sandbox bash -c '! command -v cargo && ! command -v rustc' >/dev/null \
  || fail "cargo or rustc is still on PATH: $clean_path"

echo "-- pip install the wheel into a fresh venv (binary packages only, no cargo on PATH)"
sandbox python -m pip install --quiet --disable-pip-version-check --only-binary=:all: --no-compile \
  -c "$ROOT/constraints.txt" "$WHEEL"
sandbox python -m pip check >/dev/null || fail "pip check: $(sandbox python -m pip check)"

echo "-- smoke test"
version=$(sandbox airtcp --version)
expected=$(basename "$WHEEL" | cut -d- -f2)
[ "$version" = "airtcp $expected" ] || fail "airtcp --version printed '$version', not 'airtcp $expected'"
echo "   $version"
# The package and its core come from the fresh venv, not from the source tree.
sandbox python -c "
import sys, airtcp, airtcp._core
for m in (airtcp, airtcp._core):
    assert m.__file__.startswith(sys.prefix), (m.__file__, sys.prefix)
print('   imported from', sys.prefix)
"
# One run through the command line; its summary equals the editable install's, wall time aside.
run=(run "$ROOT/examples/bss-udp-saturation.toml" --seed 3 --set duration_s=2 --set warmup_s=0.5 --json)
sandbox airtcp "${run[@]}" >"$WORK/wheel.json"
.venv/bin/airtcp "${run[@]}" >"$WORK/editable.json"
sandbox python - "$WORK/wheel.json" "$WORK/editable.json" <<'EOF'
import json, sys

wheel, editable = (json.load(open(p)) for p in sys.argv[1:])
for d in (wheel, editable):
    d.pop("wall_seconds")
assert wheel["totals"]["goodput_bps"] > 0, wheel["totals"]
assert wheel == editable, "the wheel's run differs from the editable install's"
print(f"   airtcp run: {wheel['totals']['goodput_bps'] / 1e6:.3f} Mbit/s, equal to the editable install's")
EOF
# Gymnasium >= 1.0 has no plugin entry points: an id naming its module registers the
# environments from a string, without importing airtcp.gym first.
sandbox python -W error -c "
import sys, gymnasium
assert 'airtcp' not in sys.modules
for name in ('RateControl', 'CongestionControl'):
    env = gymnasium.make(f'airtcp.gym:airtcp/{name}-v0')
    env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
    assert env.observation_space.contains(obs), obs
    env.close()
print('   gymnasium.make(\"airtcp.gym:airtcp/RateControl-v0\") and CongestionControl-v0 step')
"
echo "wheel smoke test passed: $(basename "$WHEEL") installed and ran without a Rust toolchain"
