#!/usr/bin/env bash
# The crash-loop proof's long mode: tests/crash_loop's harness with 1000
# kill-and-restart cycles (CYCLES), each process making OPS host calls and
# killed with SIGKILL within MAX_KILL_MS of its start.
#
#   bench/crash_loop/run.sh [BUILD_DIR]     (default <repo>/build-bench)
#   CYCLES=5000 SEED=7 bench/crash_loop/run.sh
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$repo/build-bench}"
cycles="${CYCLES:-1000}"
if ! log="$(cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release 2>&1 &&
            ninja -C "$build" herald_crash_loop herald_loop_program 2>&1)"; then
  printf '%s\n' "$log" >&2
  echo "crash_loop: the build failed" >&2
  exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$build/tests/crash_loop/herald_crash_loop" "$build/tests/crash_loop/herald_loop_program" \
  "$work/loop.db" --cycles "$cycles" --seed "${SEED:-1}" --ops "${OPS:-40}" \
  --max-kill-ms "${MAX_KILL_MS:-60}"
