#!/usr/bin/env bash
# Front-end benchmark: builds herald_bench_gen and herald_bench_parse in
# Release, generates projects of 10k, 100k and 1M lines, and measures lexing
# and lexing+parsing on each (every measurement in a fresh process; the best
# time of RUNS runs, the largest peak memory). Prints a markdown table.
#
#   bench/run-parse-bench.sh [BUILD_DIR]      (default: <repo>/build-bench)
#
# Environment: RUNS (default 3), SIZES (default "10000 100000 1000000"),
# SEED (default 1).
set -euo pipefail

BENCH_BUILD_DIR="${1:-}"
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
bench_setup run-parse-bench herald_bench_parse
runs="${RUNS:-3}"
parse="$build/bench/parse/herald_bench_parse"


# measure DIR MODE: over $runs processes, the best thread-CPU time, the best
# wall time and the largest peak memory. Prints
# "cpu_seconds wall_seconds peak_bytes arena_per_line".
measure() {
  local dir="$1" mode="$2" cpu="" wall="" peak=0 arena="-" out c w p h
  for _ in $(seq "$runs"); do
    if ! out="$("$parse" "$dir" --mode "$mode")"; then
      echo "herald_bench_parse failed on $dir ($mode)" >&2
      exit 1
    fi
    c="$(field cpu_seconds <<<"$out")"
    w="$(field seconds <<<"$out")"
    p="$(field peak_rss <<<"$out")"
    h="$(field vm_hwm <<<"$out")"
    if (( h > p )); then p="$h"; fi
    if (( p > peak )); then peak="$p"; fi
    if [[ -z "$cpu" ]] || lt "$c" "$cpu"; then cpu="$c"; fi
    if [[ -z "$wall" ]] || lt "$w" "$wall"; then wall="$w"; fi
    if [[ "$mode" == parse ]]; then arena="$(field arena_per_line <<<"$out")"; fi
  done
  echo "$cpu $wall $peak $arena"
}

lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
per_s() { awk -v l="$1" -v s="$2" 'BEGIN { printf "%.0f", l / s }'; }
human() { awk -v n="$1" 'BEGIN {
  if (n >= 1e6) printf "%.2fM", n / 1e6; else if (n >= 1e3) printf "%.0fk", n / 1e3;
  else printf "%d", n }'; }
mib() { awk -v n="$1" 'BEGIN { printf "%.1f MiB", n / 1048576 }'; }

echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'),"\
     "$(c++ --version | head -1); load average $(cut -d' ' -f1-3 /proc/loadavg)."
echo "Best of $runs fresh processes, one thread. Rates use thread CPU time; the"
echo "wall-clock column shows how much a busy machine adds on top."
echo
echo "| size (lines) | files | source | lex lines/s | parse lines/s | parse ns/line | parse lines/s (wall) | AST arena B/line | peak RSS (parse) | peak B/line |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in $sizes; do
  dir="$work/p$n"
  "$gen" --lines "$n" --out "$dir" --seed "$seed" >/dev/null
  info="$("$parse" "$dir" --mode lex)"
  lines="$(field lines <<<"$info")"
  files="$(field files <<<"$info")"
  bytes="$(field bytes <<<"$info")"
  read -r lex_cpu _ _ _ < <(measure "$dir" lex)
  read -r p_cpu p_wall p_peak p_arena < <(measure "$dir" parse)
  ns="$(awk -v s="$p_cpu" -v l="$lines" 'BEGIN { printf "%.0f", s * 1e9 / l }')"
  per_line="$(awk -v p="$p_peak" -v l="$lines" 'BEGIN { printf "%.1f", p / l }')"
  echo "| $(human "$lines") ($lines) | $files | $(mib "$bytes") |" \
       "$(human "$(per_s "$lines" "$lex_cpu")") | $(human "$(per_s "$lines" "$p_cpu")") | $ns |" \
       "$(human "$(per_s "$lines" "$p_wall")") | $p_arena | $(mib "$p_peak") | $per_line |"
  rm -rf "$dir"
done
