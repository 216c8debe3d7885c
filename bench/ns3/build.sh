#!/usr/bin/env bash
# Build the ns-3 reference benchmarks against the ns-3 3.44 C++ libraries shipped in the
# PyPI wheel `ns3==3.44.post0` (headers in <site-packages>/ns3/include, libs in .../ns3/lib64).
#
# Usage: bench/ns3/build.sh [PROGRAM...]  (PYTHON=/path/to/python to choose the interpreter;
#        PROGRAMs from the list PROGS below, default all of them)
# Output: bench/ns3/build/{bss_saturation,chain_udp,bss_tcp,chain_tcp,error_models,
#         distance_udp,ht_upload,mesh_chain,wired_tcp,phy_txtime} (paths printed on stdout, one
#         per line).
#         Idempotent: installs the wheel only if missing, recompiles only when a source is newer
#         than its binary.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PY="${PYTHON:-python3}"
CXX="${CXX:-g++}"
NS3_VERSION="3.44.post0"
OUT="$HERE/build"

log() { echo "[ns3/build.sh] $*" >&2; }

# Locate the wheel's data dir through its distribution metadata. This is the "import ns" style
# detection without importing ns: importing would start cppyy's JIT and needs the Python deps.
# $1 (optional): extra directory to search (see the --target fallback below).
find_prefix() {
    PYTHONPATH="${1:-}${PYTHONPATH:+:$PYTHONPATH}" "$PY" - <<'PYEOF'
import importlib.metadata as md, pathlib, sys
try:
    dist = md.distribution("ns3")
except md.PackageNotFoundError:
    sys.exit(1)
if dist.version != "3.44.post0":
    print(f"ns3 version {dist.version} installed, need 3.44.post0", file=sys.stderr)
    sys.exit(2)
for f in dist.files or []:
    p = str(f)
    if p.startswith("ns3/include/ns3/") and p.endswith("core-module.h"):
        print(pathlib.Path(dist.locate_file(f)).resolve().parents[2])
        sys.exit(0)
sys.exit(3)
PYEOF
}

# Private install location, used when the interpreter's environment cannot be modified
# (e.g. Debian's PEP 668 "externally-managed-environment"). Only the C++ part is needed, so
# --no-deps (no cppyy).
TARGET="$OUT/pyns3"
if PREFIX="$(find_prefix)"; then
    :
elif PREFIX="$(find_prefix "$TARGET")"; then
    :
else
    log "ns3==$NS3_VERSION not found for $PY; installing with pip"
    if "$PY" -m pip install --quiet "ns3==$NS3_VERSION" >&2 && PREFIX="$(find_prefix)"; then
        :
    else
        log "pip install into the environment failed; installing into $TARGET (--no-deps)"
        mkdir -p "$OUT"
        "$PY" -m pip install --quiet --no-deps --upgrade --target "$TARGET" \
            "ns3==$NS3_VERSION" >&2
        PREFIX="$(find_prefix "$TARGET")"
    fi
fi

INC="$PREFIX/include"
LIB="$PREFIX/lib64"
[[ -d "$LIB" ]] || LIB="$PREFIX/lib"
[[ -f "$INC/ns3/core-module.h" && -f "$LIB/libns3.44-wifi.so" ]] || {
    log "could not find ns-3 headers/libs under $PREFIX"
    exit 1
}
log "ns-3 prefix: $PREFIX"

mkdir -p "$OUT"
# Same preprocessor definitions as the wheel's CMake export (lib64/cmake/ns3/ns3Targets.cmake).
DEFS=(-DNS3_BUILD_PROFILE_RELEASE -DNS3_LOG_ENABLE -DNS3_ASSERT_ENABLE -DHAVE_GSL)
MODS=(core network internet mobility propagation spectrum antenna wifi applications
      traffic-control energy stats bridge)
LIBS=()
for m in "${MODS[@]}"; do LIBS+=("-lns3.44-$m"); done

PROGS=(bss_saturation chain_udp bss_tcp chain_tcp error_models distance_udp ht_upload mesh_chain
       wired_tcp phy_txtime)

# Rebuild everything if the ns-3 prefix changed since the last build (rpath points to it).
STAMP="$OUT/.ns3-prefix"
if [[ "$(cat "$STAMP" 2>/dev/null)" != "$LIB" ]]; then
    rm -f "${PROGS[@]/#/$OUT/}"
fi

WANTED=("${PROGS[@]}")
if (($# > 0)); then
    for prog in "$@"; do
        [[ " ${PROGS[*]} " == *" $prog "* ]] || { log "unknown program $prog (known: ${PROGS[*]})"; exit 2; }
    done
    WANTED=("$@")
fi

for prog in "${WANTED[@]}"; do
    src="$HERE/$prog.cc"
    bin="$OUT/$prog"
    deps=("$src" "$HERE/common.h" "$0")
    [[ "$prog" == *_tcp || "$prog" == ht_upload || "$prog" == mesh_chain ]] &&
        deps+=("$HERE/tcp_common.h")
    # mesh_chain also needs the mesh module (MeshHelper, Dot11sStack: libns3.44-mesh)
    extra=()
    [[ "$prog" == mesh_chain ]] && extra+=(-lns3.44-mesh)
    # wired_tcp needs the point-to-point module (PointToPointHelper: libns3.44-point-to-point)
    [[ "$prog" == wired_tcp ]] && extra+=(-lns3.44-point-to-point)
    stale=0
    for dep in "${deps[@]}"; do
        [[ -x "$bin" && "$bin" -nt "$dep" ]] || stale=1
    done
    if [[ $stale == 0 ]]; then
        log "$prog up to date"
    else
        log "compiling $prog"
        "$CXX" -O2 -std=c++20 "${DEFS[@]}" -I"$INC" -I"$HERE" "$src" -o "$bin.tmp" \
            -L"$LIB" "${extra[@]}" "${LIBS[@]}" -Wl,-rpath,"$LIB" -Wl,--disable-new-dtags
        mv "$bin.tmp" "$bin"
    fi
    echo "$bin"
done
echo "$LIB" >"$STAMP"
