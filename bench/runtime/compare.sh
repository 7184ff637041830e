#!/usr/bin/env bash
# In-memory delivery beside eventpp, in one run: `herald_bench_runtime N S`
# (memory backend, deterministic executor) and herald_bench_eventpp (the
# same shape with eventpp's EventQueue and EventDispatcher), for S = 1 and
# 8 subscriptions, alternating, RUNS times each; prints nanoseconds per
# delivery (median and range) and Herald's ratio to each eventpp class.
#
#   bench/runtime/compare.sh EVENTPP_DIR [BUILD_DIR]
#
# EVENTPP_DIR: a checkout of github.com/wqking/eventpp (header-only; not part
# of this repository). BUILD_DIR (default <repo>/build-bench) is configured
# as a Release -O2 build with HERALD_EVENTPP_DIR set. Environment: RUNS
# (default 5), DELIVERIES (default 4000000), SUBS (default "1 8"), CPU (the
# CPU both programs are pinned to with taskset, default the last one; "any"
# leaves them unpinned). Pinned, both run on the same core: on virtual
# machines one vCPU can run a third slower than another for minutes, and
# an unpinned run lands on either.
set -euo pipefail

if [ $# -lt 1 ] || [ ! -f "$1/include/eventpp/eventqueue.h" ]; then
  echo "usage: bench/runtime/compare.sh EVENTPP_DIR [BUILD_DIR]" >&2
  echo "  EVENTPP_DIR must hold include/eventpp/eventqueue.h" >&2
  exit 2
fi
eventpp="$(cd "$1" && pwd)"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${2:-$repo/build-bench}"
runs="${RUNS:-5}"
deliveries="${DELIVERIES:-4000000}"
subs_list="${SUBS:-1 8}"

if ! log="$(cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
              "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" \
              "-DHERALD_EVENTPP_DIR=$eventpp" 2>&1 &&
            ninja -C "$build" herald_bench_runtime herald_bench_eventpp 2>&1)"; then
  printf '%s\n' "$log" >&2
  echo "compare.sh: the build failed" >&2
  exit 1
fi
herald="$build/bench/runtime/herald_bench_runtime"
other="$build/bench/runtime/herald_bench_eventpp"
cpu="${CPU:-$(($(nproc) - 1))}"
pin=()
if [ "$cpu" != any ]; then pin=(taskset -c "$cpu"); fi

load() { cut -d' ' -f1-3 /proc/loadavg; }

# median and range of the numbers on stdin
stats() {
  sort -g | awk '{ v[NR] = $1 }
    END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
          printf "%.1f %.1f %.1f\n", m, v[1], v[NR] }'
}

echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'),"\
     "$(c++ --version | head -1); Release -O2."
echo "eventpp: $eventpp; $deliveries deliveries per run, $runs runs of each, alternating;"\
     "$([ "$cpu" = any ] && echo "not pinned" || echo "both pinned to CPU $cpu")."
echo "Load average at the start: $(load)."
echo
echo "| subscriptions | Herald ns/delivery | eventpp EventQueue | eventpp EventDispatcher | Herald / EventQueue | Herald / EventDispatcher |"
echo "|---:|---:|---:|---:|---:|---:|"
for subs in $subs_list; do
  h="" q="" d=""
  for _ in $(seq "$runs"); do
    # "X.XXM deliveries/s" -> ns per delivery
    rate="$("${pin[@]}" "$herald" "$deliveries" "$subs" | awk '{ sub(/M$/, "", $1); print $1 }')"
    h+="$(awk -v r="$rate" 'BEGIN { printf "%.3f", 1000 / r }')"$'\n'
    out="$("${pin[@]}" "$other" "$deliveries" "$subs")"
    q+="$(awk '/EventQueue/ { for (i = 1; i <= NF; ++i) if ($i == "ns") print $(i - 1) }' <<<"$out")"$'\n'
    d+="$(awk '/EventDispatcher/ { for (i = 1; i <= NF; ++i) if ($i == "ns") print $(i - 1) }' <<<"$out")"$'\n'
  done
  read -r hm hl hh <<<"$(printf '%s' "$h" | stats)"
  read -r qm ql qh <<<"$(printf '%s' "$q" | stats)"
  read -r dm dl dh <<<"$(printf '%s' "$d" | stats)"
  printf "| %s | %s (%s–%s) | %s (%s–%s) | %s (%s–%s) | %sx | %sx |\n" \
    "$subs" "$hm" "$hl" "$hh" "$qm" "$ql" "$qh" "$dm" "$dl" "$dh" \
    "$(awk -v a="$hm" -v b="$qm" 'BEGIN { printf "%.2f", a / b }')" \
    "$(awk -v a="$hm" -v b="$dm" 'BEGIN { printf "%.2f", a / b }')"
done
echo
echo "Load average at the end: $(load)."
