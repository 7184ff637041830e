#!/usr/bin/env bash
# Checker benchmark: builds herald_bench_gen and herald_bench_check in
# Release, generates projects of 10k, 100k and 1M lines, and measures
# parsing and parsing+checking of each in RUNS fresh processes (each
# process times both phases of the same run, so the parse-only rate and the
# parse+check rate are side by side). Prints a markdown table of medians and
# ranges.
#
#   bench/run-check-bench.sh [BUILD_DIR]      (default: <repo>/build-bench)
#
# Environment: RUNS (default 5), SIZES (default "10000 100000 1000000"),
# SEED (default 1).
set -euo pipefail

BENCH_BUILD_DIR="${1:-}"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_setup run-check-bench herald_bench_check
runs="${RUNS:-5}"
check="$build/bench/check/herald_bench_check"

# stats: "median (min–max)" of the numbers on stdin; FORMAT formats each.
stats() {
  sort -g | awk -v f="$1" '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf f " (" f "–" f ")", m, v[1], v[NR] }'
}
median() {
  sort -g | awk '{ v[NR] = $1 } END {
    print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
max() { sort -g | tail -1; }
mib() { awk -v n="$1" 'BEGIN { printf "%.1f MiB", n / 1048576 }'; }

echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'),"\
     "$(c++ --version | head -1); load average $(cut -d' ' -f1-3 /proc/loadavg)."
echo "$runs fresh processes per size, one thread; median (min–max) over them."
echo "Rates use thread CPU time; lines/s in millions."
echo
echo "| size (lines) | files | parse M lines/s | parse+check M lines/s | check alone M lines/s | parse+check / parse (time) | parse+check ns/line | parse+check M lines/s (wall) | peak RSS | peak B/line | checker RSS B/line |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in $sizes; do
  dir="$work/p$n"
  "$gen" --lines "$n" --out "$dir" --seed "$seed" >/dev/null
  out="$work/out$n"
  : >"$out"
  for i in $(seq "$runs"); do
    if ! "$check" "$dir" >"$work/one" 2>"$work/err"; then
      cat "$work/one" "$work/err" >&2
      echo "herald_bench_check failed on the $n-line project" >&2
      exit 1
    fi
    echo "run $i" >>"$out"
    cat "$work/one" >>"$out"
  done
  lines="$(field lines <"$work/one")"
  files="$(field files <"$work/one")"
  col() { field "$1" <"$out"; }
  m() { awk '{ printf "%.3f\n", $1 / 1e6 }'; }
  parse="$(col parse_lines_per_s | m | stats %.2f)"
  total="$(col total_lines_per_s | m | stats %.2f)"
  alone="$(col check_lines_per_s | m | stats %.2f)"
  ratio="$(col total_over_parse | stats %.2f)"
  ns="$(col total_ns_per_line | median | awk '{ printf "%.0f", $1 }')"
  wall="$(col total_wall_lines_per_s | m | median | awk '{ printf "%.2f", $1 }')"
  peak="$(col peak_checked | max)"
  per_line="$(awk -v p="$peak" -v l="$lines" 'BEGIN { printf "%.0f", p / l }')"
  checker="$(col check_rss_per_line | median | awk '{ printf "%.0f", $1 }')"
  echo "| $lines | $files | $parse | $total | $alone | $ratio | $ns | $wall | $(mib "$peak") | $per_line | $checker |"
  rm -rf "$dir"
done
