#!/usr/bin/env bash
# The randomized fault harness's long mode: tests/torture's harness for any
# number of seeds, with every fault, workload feature and check switchable.
# Prints a FAIL line and a replay command per violation, then the counts:
# seeds run, per executor, per fault kind, violations per kind.
#
#   bench/torture/run.sh [BUILD_DIR]           (default <repo>/build-bench)
#   SEEDS=2000 SEED=1 EXECUTOR=any FAULTS=all FEATURES=all bench/torture/run.sh
#
#   SEEDS     how many seeds (default 200), from SEED (default 1)
#   EXECUTOR  deterministic | threaded | mixed | any (default any)
#   FAULTS    kill,recovery-kill,lock,second-writer,symlink,disk,corrupt,
#             rollback,server-kill,server-pause | all | none (default all)
#   FEATURES  floats,big,deep,bad-bytes | all | none (default all)
#   SKIP      checks left out: time,time-order (default none)
#   BUDGET    start no seed after this many seconds (default 0: no limit)
#   OPS       host calls per process (default 30)
#   NATS_SERVERS  0: the sqlite backend (default); 1 or 3: every process a
#             node of the nats backend on that many fresh nats-servers per
#             seed (3: a cluster), with the server faults and the streams
#             checked
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${1:-$repo/build-bench}"
targets=(herald_torture herald_torture_program herald_torture_older)
if ! log="$(cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release 2>&1 &&
            ninja -C "$build" "${targets[@]}" 2>&1)"; then
  printf '%s\n' "$log" >&2
  echo "torture: the build failed" >&2
  exit 1
fi
work="$(mktemp -d)"
# A failing seed's database stays for inspection (the harness removes the
# others); the directory goes unless one did.
trap 'rmdir "$work" 2>/dev/null || echo "torture: failing seeds kept in $work" >&2' EXIT
dir="$build/tests/torture"
"$dir/herald_torture" "$dir/herald_torture_program" "$dir/herald_torture_older" \
  "$work" --seed "${SEED:-1}" --seeds "${SEEDS:-200}" \
  --executor "${EXECUTOR:-any}" --faults "${FAULTS:-all}" \
  --features "${FEATURES:-all}" --skip-checks "${SKIP:-none}" \
  --budget-seconds "${BUDGET:-0}" --ops "${OPS:-30}" \
  --nats-servers "${NATS_SERVERS:-0}"
