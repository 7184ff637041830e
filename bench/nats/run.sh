#!/usr/bin/env bash
# Herald's nats transport beside raw JetStream, in one run, on servers this
# script starts on 127.0.0.1 and stops: one server (1 replica) and a
# cluster of three (3 replicas), fresh for every measurement.
#
#   bench/nats/run.sh [BUILD_DIR]      (default: <repo>/build-bench)
#
# For each replica count: events/s from the first emit to the last
# delivery across two processes (herald_bench_nats: a publishing node and a
# subscribing node) beside raw_js (one publisher and one pull consumer of
# the same servers, messages of SIZE bytes), and p50/p99 emit-to-delivery
# at one event every PACE_US microseconds, each its own commit.
# Environment: RUNS (default 3), EVENTS (default 20000), LATENCY_EVENTS
# (default 1000), PACE_US (default 5000), SIZE (default 384, about a Herald
# message: its envelope and payload).
set -euo pipefail

BENCH_BUILD_DIR="${1:-}"
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
bench_setup nats/run.sh herald_bench_nats raw_js
runs="${RUNS:-3}"
events="${EVENTS:-20000}"
latency_events="${LATENCY_EVENTS:-1000}"
pace="${PACE_US:-5000}"
size="${SIZE:-384}"
herald="$build/bench/nats/herald_bench_nats"
raw="$build/bench/nats/raw_js"
server_bin="$(command -v nats-server || echo /usr/sbin/nats-server)"

pids=()
stop_servers() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
}
trap 'stop_servers; rm -rf "$work"' EXIT

# start_servers N: N servers (a cluster when N > 1) with JetStream on
# ports from PORT_BASE (default 14300: clients PORT_BASE+i, routes
# PORT_BASE+10+i), fresh stores; sets `urls`. Waits until JetStream answers.
start_servers() {
  local n="$1" i routes="" base="${PORT_BASE:-14300}"
  for i in $(seq 0 $((n - 1))); do
    routes+="${routes:+,}nats-route://127.0.0.1:$((base + 10 + i))"
  done
  urls=""
  for i in $(seq 0 $((n - 1))); do
    local dir="$work/server-$i" args=()
    rm -rf "$dir" && mkdir -p "$dir"
    args=(-js -a 127.0.0.1 -p "$((base + i))" -sd "$dir" -l "$dir/log")
    if [ "$n" -gt 1 ]; then
      args+=(--server_name "bench-$i" --cluster_name bench
             --cluster "nats://127.0.0.1:$((base + 10 + i))" --routes "$routes")
    fi
    "$server_bin" "${args[@]}" &
    pids+=($!)
    urls+="${urls:+,}nats://127.0.0.1:$((base + i))"
  done
  "$herald" ready "$urls" || { echo "nats/run.sh: the servers did not start" >&2; exit 1; }
}

# herald_run REPLICAS EVENTS MODE: one measurement of two Herald nodes.
herald_run() {
  local replicas="$1" count="$2" mode="$3" out status
  rm -f "$work"/pub.db* "$work"/sub.db*
  "$herald" subscriber "$urls" "$replicas" "$work/sub.db" "$count" >"$work/sub.out" &
  local sub=$!
  "$herald" publisher "$urls" "$replicas" "$work/pub.db" "$count" "$mode" "$pace" &
  local pub=$!
  status=0
  wait "$sub" || status=$?
  kill "$pub" 2>/dev/null || true
  wait "$pub" 2>/dev/null || true
  [ "$status" -eq 0 ] || { echo "nats/run.sh: the Herald subscriber failed" >&2; exit 1; }
  cat "$work/sub.out"
}

echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'),"\
     "$("$server_bin" --version), Release build."
echo "$events events per throughput run, $latency_events per latency run (one every $pace us), $runs runs of each, alternating; raw messages of $size bytes."
echo "Load average at the start: $(load)."
echo
echo "| replicas | Herald events/s | raw JetStream msgs/s | Herald / raw | Herald p50 / p99 us | raw p50 / p99 us |"
echo "|---:|---:|---:|---:|---:|---:|"
for replicas in 1 3; do
  servers=1
  [ "$replicas" -gt 1 ] && servers=3
  : >"$work/h-rate" ; : >"$work/r-rate" ; : >"$work/h-lat" ; : >"$work/r-lat"
  for _ in $(seq "$runs"); do
    start_servers "$servers"
    herald_run "$replicas" "$events" throughput | awk '{ print $1 }' >>"$work/h-rate"
    stop_servers
    start_servers "$servers"
    "$raw" "$urls" "$replicas" "$size" "$events" throughput | awk '{ print $1 }' >>"$work/r-rate"
    stop_servers
    start_servers "$servers"
    herald_run "$replicas" "$latency_events" latency | awk '{ print $2, $3 }' >>"$work/h-lat"
    stop_servers
    start_servers "$servers"
    "$raw" "$urls" "$replicas" "$size" "$latency_events" latency "$pace" | awk '{ print $2, $3 }' >>"$work/r-lat"
    stop_servers
  done
  h="$(median <"$work/h-rate")" r="$(median <"$work/r-rate")"
  hp50="$(awk '{ print $1 }' "$work/h-lat" | median)" hp99="$(awk '{ print $2 }' "$work/h-lat" | median)"
  rp50="$(awk '{ print $1 }' "$work/r-lat" | median)" rp99="$(awk '{ print $2 }' "$work/r-lat" | median)"
  echo "| $replicas | $(stats %.0f <"$work/h-rate") | $(stats %.0f <"$work/r-rate") |" \
       "$(awk -v h="$h" -v r="$r" 'BEGIN { printf "%.2fx", h / r }') |" \
       "$hp50 / $hp99 | $rp50 / $rp99 |"
done
echo
echo "Load average (1 min) at the end: $(load)."
