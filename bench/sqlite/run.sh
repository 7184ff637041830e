#!/usr/bin/env bash
# The sqlite backend benchmark (herald_bench_sqlite, see main.cpp) from a
# Release build, with the machine, the file system the databases go to and
# the load average before and after.
#
#   bench/sqlite/run.sh [BUILD_DIR]      (default: <repo>/build-bench)
#
# Environment: RUNS (default 5), SECONDS_PER_RUN (default 1), BENCH_DIR
# (where the databases go, default /tmp).
set -euo pipefail

BENCH_BUILD_DIR="${1:-}"
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
bench_setup sqlite/run.sh herald_bench_sqlite
runs="${RUNS:-5}"
seconds="${SECONDS_PER_RUN:-1}"
dir="${BENCH_DIR:-/tmp}"

echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'),"\
     "$(c++ --version | head -1); Release build."
echo "Databases in $dir: $(df -T "$dir" | awk 'NR == 2 { print $2 " on " $1 }')."
load_start="$(load)"
BENCH_DIR="$dir" "$build/bench/sqlite/herald_bench_sqlite" "$runs" "$seconds"
echo
echo "Load average (1 min): $load_start → $(load)."
