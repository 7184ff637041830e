#!/usr/bin/env bash
# heraldc build beside flatc --cpp and protoc --cpp_out on the same schema.
# For each size (lines of the full generated Herald project), generates
# from one seed the full project, its schema part as a Herald project
# (contexts with their types and events) and the same types and events as
# one .fbs and one .proto file; then runs, RUNS times each in fresh
# processes, interleaved (each round starts with the next generator, so
# load from other jobs falls on all of them alike), each into a new empty
# output directory:
#
#   heraldc build FULL_PROJECT -o OUT
#   heraldc build SCHEMA_PROJECT -o OUT
#   flatc --cpp -o OUT schema.fbs
#   protoc --cpp_out=OUT -I DIR schema.proto
#
# Prints a markdown table: medians and ranges of CPU time (user + system of
# the child, from wait4), wall time, peak RSS, what each wrote, and each
# one's time over flatc's.
#
#   bench/codegen/build.sh [BUILD_DIR]      (default: <repo>/build-bench)
#
# Environment: RUNS (default 5), SIZES (default "10000 100000"), SEED
# (default 1).
set -euo pipefail

BENCH_BUILD_DIR="${1:-}"
SIZES="${SIZES:-10000 100000}"
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
bench_need_schema_compilers
bench_setup codegen/build.sh heraldc herald_bench_measure
runs="${RUNS:-5}"
heraldc="$build/tools/heraldc/heraldc"
measure="$build/bench/schema/herald_bench_measure"
tools=(full schema fbs proto)

label() {
  case "$1" in
    full) echo "heraldc build, full project" ;;
    schema) echo "heraldc build, schema project" ;;
    fbs) echo "flatc --cpp" ;;
    proto) echo "protoc --cpp_out" ;;
  esac
}

# run TOOL DIR REPORT: one measured process writing into DIR/out_TOOL;
# fails the bench on an error or on any diagnostic, so it never measures
# error reporting.
run() {
  local tool="$1" d="$2" report="$3" out="$2/stdout" err="$2/stderr"
  local dest="$2/out_$1" status=0
  rm -rf "$dest"
  mkdir -p "$dest"
  case "$tool" in
    full | schema)
      "$measure" "$report" "$heraldc" --color=never build "$d/$tool" \
        -o "$dest" >"$out" 2>"$err" || status=$?
      ;;
    fbs)
      "$measure" "$report" flatc --cpp -o "$dest" "$d/fbs/schema.fbs" \
        >"$out" 2>"$err" || status=$?
      ;;
    proto)
      "$measure" "$report" protoc "--cpp_out=$dest" "-I$d/proto" \
        "$d/proto/schema.proto" >"$out" 2>"$err" || status=$?
      ;;
  esac
  if [ "$status" != 0 ] || [ -s "$out" ] || [ -s "$err" ]; then
    head -c 4000 "$out" "$err" >&2
    echo "$(label "$tool") failed or printed diagnostics (exit $status)" >&2
    exit 1
  fi
}

# written DIR: "FILES files, LINES lines" of what a run wrote.
written() {
  local files lines
  files="$(find "$1" -type f | wc -l)"
  lines="$(find "$1" -type f -exec cat {} + | wc -l)"
  echo "$files files, $lines lines"
}

echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'),"\
     "$(c++ --version | head -1)."
echo "Generators: heraldc (Release), $(flatc --version), $(protoc --version)."
echo "$runs fresh processes per generator and size, interleaved; seed $seed;"
echo "each run writes into a new empty directory."
echo "CPU time is user + system of the process; median (min–max) over the runs."
echo "Sizes are lines of the full Herald project; the schema project, .fbs"
echo "and .proto hold the same types and events."
echo
echo "| Herald project | generator | input lines | wrote | CPU s | wall s | peak RSS | CPU time ÷ flatc | load avg |"
echo "|---:|---|---:|---|---:|---:|---:|---:|---:|"
for n in $sizes; do
  d="$work/n$n"
  mkdir -p "$d"
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
  base="$(field cpu_s <"$d/m_fbs" | median)"
  first=1
  for tool in "${tools[@]}"; do
    read -r lines _ <"$d/gen_$tool"
    cpu="$(field cpu_s <"$d/m_$tool" | median)"
    ratio="$(awk -v t="$cpu" -v b="$base" 'BEGIN { printf "%.2f", t / b }')"
    size="$([ "$first" = 1 ] && echo "$n" || true)"
    loads="$([ "$first" = 1 ] && echo "$load_start → $load_end" || true)"
    echo "| $size | $(label "$tool") | $lines | $(written "$d/out_$tool") |"\
         "$(field cpu_s <"$d/m_$tool" | stats %.3f) |"\
         "$(field wall_s <"$d/m_$tool" | stats %.3f) |"\
         "$(mib "$(field peak_rss <"$d/m_$tool" | max)") | $ratio | $loads |"
    first=0
  done
  rm -rf "$d"
done
