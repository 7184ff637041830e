#!/usr/bin/env bash
# Deliveries/s of generated code beside the hand-written runtime fixture:
# herald_bench_codegen_deliveries (a Herald program compiled by heraldc,
# see deliveries.cpp) and herald_bench_runtime's single-configuration mode
# (`herald_bench_runtime N SUBS`), both on the deterministic executor with
# bursts of 256 events per host call, RUNS times each per subscription
# count, alternating which goes first, so that both see the same load.
#
#   bench/codegen/deliveries.sh [BUILD_DIR]      (default: <repo>/build-bench)
#
# Environment: RUNS (default 5), DELIVERIES (default 4000000).
set -euo pipefail

BENCH_BUILD_DIR="${1:-}"
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
bench_setup codegen/deliveries.sh herald_bench_runtime \
  herald_bench_codegen_deliveries
runs="${RUNS:-5}"
deliveries="${DELIVERIES:-4000000}"
programs=(hand generated)

# rate PROGRAM SUBS: deliveries/s in millions, from one fresh process.
rate() {
  local line
  case "$1" in
    hand)
      line="$("$build/bench/runtime/herald_bench_runtime" "$deliveries" "$2")" ;;
    generated)
      line="$("$build/bench/codegen/herald_bench_codegen_deliveries" \
        "$deliveries" "$2")" ;;
  esac
  line="$(echo "$line" | sed -n 's/^\([0-9.]*\)M deliveries\/s.*/\1/p')"
  if [ -z "$line" ]; then
    echo "$1 printed no deliveries/s" >&2
    exit 1
  fi
  echo "$line"
}

echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'),"\
     "$(c++ --version | head -1); Release build."
echo "Deterministic executor, $deliveries deliveries per run, bursts of 256"
echo "events per host call; $runs fresh processes of each program per row,"
echo "alternating; median (min–max) in millions of deliveries/s."
echo
echo "| subscriptions | hand-written (herald_bench_runtime) | generated (herald_bench_codegen_deliveries) | generated ÷ hand-written (medians) | allocations/delivery, generated | load avg |"
echo "|---:|---:|---:|---:|---:|---:|"
for subs in 1 8; do
  : >"$work/hand"
  : >"$work/generated"
  load_start="$(load)"
  for i in $(seq "$runs"); do
    for k in 0 1; do
      program="${programs[$(((k + i) % 2))]}"
      rate "$program" "$subs" >>"$work/$program"
    done
  done
  load_end="$(load)"
  allocs="$("$build/bench/codegen/herald_bench_codegen_deliveries" \
    "$deliveries" "$subs" | sed -n 's/.*, \([0-9.]*\) allocations.*/\1/p')"
  hand="$(median <"$work/hand")"
  generated="$(median <"$work/generated")"
  echo "| $subs | $(stats %.2fM <"$work/hand") | $(stats %.2fM <"$work/generated") |"\
       "$(awk -v g="$generated" -v h="$hand" 'BEGIN { printf "%.2f", g / h }') |"\
       "$allocs | $load_start → $load_end |"
done
