#!/usr/bin/env bash
# Language server benchmark: builds herald_bench_gen, heraldc and
# herald_bench_lsp in Release, generates a project of each size and runs
# herald_bench_lsp on it RUNS times, each with a fresh `heraldc lsp` pinned
# to one core (taskset -c CPU): diagnostics after EDITS edits (didChange to
# the publishDiagnostics of that version, one edit at a time), the
# server's CPU time per edit, hover and definition at QUERIES positions,
# and the server's memory. Prints a markdown table of medians over the runs
# (the range in parentheses).
#
#   bench/lsp/run.sh [BUILD_DIR]      (default: <repo>/build-bench)
#
# Environment: RUNS (default 3), SIZES (default "100000"), SEED (default
# 1), EDITS (default 50), QUERIES (default 50), CPU (default 0).
set -euo pipefail

BENCH_BUILD_DIR="${1:-}"
SIZES="${SIZES:-100000}"
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
bench_setup lsp/run.sh heraldc herald_bench_lsp
runs="${RUNS:-3}"
edits="${EDITS:-50}"
queries="${QUERIES:-50}"
cpu="${CPU:-0}"
bench="$build/bench/lsp/herald_bench_lsp"
heraldc="$build/tools/heraldc/heraldc"

echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'),"\
     "$(c++ --version | head -1); load average $(cut -d' ' -f1-3 /proc/loadavg)."
echo "$runs fresh servers per size on core $cpu, $edits edits and $queries hover and"\
     "definition positions each; median (min–max) over the runs of each run's figure."
echo
echo "| size (lines) | first check ms | diagnostics median ms | p95 ms | max ms | server CPU per edit median ms | hover median / p95 ms | definition median / p95 ms | VmHWM | VmRSS |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in $sizes; do
  dir="$work/p$n"
  "$gen" --lines "$n" --out "$dir" --seed "$seed" >/dev/null
  out="$work/out$n"
  : >"$out"
  for i in $(seq "$runs"); do
    if ! "$bench" --server "taskset -c $cpu $heraldc lsp" --project "$dir" \
        --edits "$edits" --queries "$queries" >"$work/one" 2>"$work/err"; then
      cat "$work/one" "$work/err" >&2
      echo "herald_bench_lsp failed on the $n-line project" >&2
      exit 1
    fi
    cat "$work/one" >>"$out"
  done
  col() { field "$1" <"$out"; }
  ms() { col "$1" | stats %.1f; }
  hwm="$(col server_vmhwm_bytes | max)"
  rss="$(col server_vmrss_bytes | max)"
  echo "| $n | $(ms open_ms) | $(ms diagnostics_median_ms) | $(ms diagnostics_p95_ms)" \
       "| $(ms diagnostics_max_ms) | $(ms diagnostics_cpu_median_ms)" \
       "| $(col hover_median_ms | median) / $(col hover_p95_ms | median)" \
       "| $(col definition_median_ms | median) / $(col definition_p95_ms | median)" \
       "| $(mib "$hwm") | $(mib "$rss") |"
  rm -rf "$dir"
done
