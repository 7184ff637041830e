#!/usr/bin/env bash
# heraldc beside flatc, protoc and capnp on the same schema. For each size
# (lines of the full generated Herald project), generates from one seed the
# full project, its schema part as a Herald project (contexts with their
# types and events), and the same types and events as one .fbs, .proto and
# .capnp file; then runs, RUNS times each in fresh processes, interleaved
# (each round starts with the next compiler, so load from other jobs falls
# on all of them alike):
#
#   heraldc check FULL_PROJECT
#   heraldc check SCHEMA_PROJECT
#   flatc -b --schema -o OUT schema.fbs                (writes schema.bfbs)
#   protoc --descriptor_set_out=OUT -I DIR schema.proto
#   capnp compile -o- schema.capnp > OUT               (no plugin)
#
# Prints a markdown table: medians of CPU time (user + system of the child,
# from wait4) and wall time, lines/s, peak RSS, and each compiler's time
# over heraldc's on the schema project.
#
#   bench/schema/run.sh [BUILD_DIR]      (default: <repo>/build-bench)
#
# Environment: RUNS (default 5), SIZES (default "10000 100000 1000000
# 5000000"; at 5M Herald lines the other schemas are about 1M lines),
# SEED (default 1).
set -euo pipefail

BENCH_BUILD_DIR="${1:-}"
SIZES="${SIZES:-10000 100000 1000000 5000000}"
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
bench_need_schema_compilers
bench_setup schema/run.sh heraldc herald_bench_measure
runs="${RUNS:-5}"
heraldc="$build/tools/heraldc/heraldc"
measure="$build/bench/schema/herald_bench_measure"
tools=(full schema fbs proto capnp)

median() {
  sort -g | awk '{ v[NR] = $1 } END {
    print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# "median (min–max)" of the numbers on stdin, each with FORMAT.
stats() {
  sort -g | awk -v f="$1" '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf f " (" f "–" f ")", m, v[1], v[NR] }'
}
max() { sort -g | tail -1; }
mib() { awk -v n="$1" 'BEGIN { printf "%.1f MiB", n / 1048576 }'; }
load() { cut -d' ' -f1 /proc/loadavg; }

label() {
  case "$1" in
    full) echo "heraldc check, full project" ;;
    schema) echo "heraldc check, schema project" ;;
    fbs) echo "flatc -b --schema" ;;
    proto) echo "protoc --descriptor_set_out" ;;
    capnp) echo "capnp compile -o-" ;;
  esac
}

# run TOOL DIR REPORT: one measured process; fails the bench on an error or
# on any diagnostic, so it never measures error reporting.
run() {
  local tool="$1" d="$2" report="$3" out="$2/stdout" err="$2/stderr"
  local status=0
  case "$tool" in
    full | schema)
      "$measure" "$report" "$heraldc" check --color=never "$d/$tool" \
        >"$out" 2>"$err" || status=$?
      ;;
    fbs)
      "$measure" "$report" flatc -b --schema -o "$d/out" "$d/fbs/schema.fbs" \
        >"$out" 2>"$err" || status=$?
      ;;
    proto)
      "$measure" "$report" protoc "--descriptor_set_out=$d/out/schema.pb" \
        "-I$d/proto" "$d/proto/schema.proto" >"$out" 2>"$err" || status=$?
      ;;
    capnp)
      "$measure" "$report" capnp compile -o- "$d/capnp/schema.capnp" \
        >"$d/out/schema.capnp.bin" 2>"$err" || status=$?
      ;;
  esac
  if [ "$status" != 0 ] || [ -s "$out" ] || [ -s "$err" ]; then
    head -c 4000 "$out" "$err" >&2
    echo "$(label "$tool") failed or printed diagnostics (exit $status)" >&2
    exit 1
  fi
}

echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'),"\
     "$(c++ --version | head -1)."
echo "Compilers: heraldc (Release), $(flatc --version), $(protoc --version),"\
     "$(capnp --version)."
echo "$runs fresh processes per compiler and size, interleaved; seed $seed."
echo "CPU time is user + system of the process; median (min–max) over the runs."
echo "Sizes are lines of the full Herald project; every other input holds the"
echo "same types and events."
echo
echo "| Herald project | input | files | lines | size | CPU s | wall s | M lines/s (CPU) | peak RSS | peak B/line | CPU time ÷ heraldc schema | load avg |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in $sizes; do
  d="$work/n$n"
  mkdir -p "$d/out"
  for tool in "${tools[@]}"; do
    format="$tool"
    [ "$tool" = full ] && format=herald
    [ "$tool" = schema ] && format=herald-schema
    "$gen" --lines "$n" --seed "$seed" --format "$format" --out "$d/$tool" \
      | head -1 >"$d/gen_$tool"
    : >"$d/m_$tool"
  done
  load_start="$(load)"
  for i in $(seq "$runs"); do
    for k in "${!tools[@]}"; do
      tool="${tools[$(((k + i) % ${#tools[@]}))]}"
      run "$tool" "$d" "$d/report"
      cat "$d/report" >>"$d/m_$tool"
    done
  done
  load_end="$(load)"
  base="$(field cpu_s <"$d/m_schema" | median)"
  first=1
  for tool in "${tools[@]}"; do
    read -r lines _ bytes _ files _ <"$d/gen_$tool"
    cpu="$(field cpu_s <"$d/m_$tool" | median)"
    rate="$(awk -v l="$lines" -v t="$cpu" 'BEGIN { printf "%.2f", l / t / 1e6 }')"
    peak="$(field peak_rss <"$d/m_$tool" | max)"
    per_line="$(awk -v p="$peak" -v l="$lines" 'BEGIN { printf "%.0f", p / l }')"
    ratio="$(awk -v t="$cpu" -v b="$base" 'BEGIN { printf "%.2f", t / b }')"
    size="$([ "$first" = 1 ] && echo "$n" || true)"
    loads="$([ "$first" = 1 ] && echo "$load_start → $load_end" || true)"
    echo "| $size | $(label "$tool") | ${files%,} | ${lines} | $(mib "${bytes%,}") |"\
         "$(field cpu_s <"$d/m_$tool" | stats %.3f) |"\
         "$(field wall_s <"$d/m_$tool" | median | awk '{ printf "%.3f", $1 }') |"\
         "$rate | $(mib "$peak") | $per_line | $ratio | $loads |"
    first=0
  done
  rm -rf "$d"
done
