#!/usr/bin/env bash
# Compile time of generated C++: heraldc's beside protoc's and flatc's for
# the same events. Generates from one seed the schema part of a Herald
# project of LINES lines (types and events only; the default 5000 gives 52
# events) as a Herald project, a .proto and a .fbs file; runs heraldc build,
# protoc --cpp_out and flatc --cpp on them once; then compiles each
# generated source set RUNS times per optimisation level, in fresh
# processes, interleaved:
#
#   Herald:       g++ -std=c++20 -OX -c herald_program.cpp, the one unit
#                 herald_generate compiles: each context's .cpp included in
#                 sorted order (-I runtime/include: the runtime's headers,
#                 nlohmann json's json_fwd.hpp, fmt)
#   protobuf:     g++ -std=c++20 -OX -c schema.pb.cc
#   flatbuffers:  g++ -std=c++20 -OX -c TU.cpp, a file holding only
#                 #include "schema_generated.h" (flatc writes no source)
#
# and, when SETS names them, herald-contexts: each context's .cpp as its own
# unit (what a build that does not amalgamate compiles), and
# herald-includes: one unit holding only the #include lines of the
# contexts' .cpp files (library headers, then the generated headers), the
# part of Herald's time that is headers and type declarations.
#
# The host race (the sets herald-host, proto-host, fbs-host): what a host
# pays to use the generated types. The generator also writes, for each
# language, host.cpp: a unit that builds every event with a value in each
# field, encodes it to bytes, decodes the bytes and reads every field
# (bench/gen/host.h). Each set is the generated code and that host:
#
#   herald-host:  herald_program.cpp (as above) and host.cpp, over
#                 herald/bytes.hpp (herald::encode, herald::decode<E>)
#   proto-host:   schema.pb.cc and host.cpp (SerializeAsString,
#                 ParseFromString)
#   fbs-host:     host.cpp alone, which includes schema_generated.h
#                 (FlatBufferBuilder, Verifier, GetRoot)
#
# Prints a markdown table: medians and ranges of CPU time (user + system of
# the compiler processes, from wait4), the same per 50 events, peak RSS,
# and each set's time over flatbuffers' (a host set's over fbs-host's).
#
#   bench/codegen/compile.sh [BUILD_DIR]      (default: <repo>/build-bench)
#
# Environment: RUNS (default 3), LINES (default 5000), OPTS (default
# "-O0 -O2"), SETS (default "herald proto fbs herald-host proto-host
# fbs-host"; herald-contexts and herald-includes can be added; fbs must be
# one when a set of generated code alone is, fbs-host when a host set is),
# CXX (default g++), SEED (default 1).
#
# A change to the generator or the runtime's headers, measured in the same
# interleaved runs: BASE_HERALDC (a heraldc binary) and BASE_INCLUDE (a
# runtime/include directory) of the build before it add the sets
# herald-base and herald-host-base, the same units from that generator over
# those headers (SETS="herald-host herald-host-base fbs-host").
set -euo pipefail

BENCH_BUILD_DIR="${1:-}"
source "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
bench_need_schema_compilers
bench_need_cpp_runtimes
bench_setup codegen/compile.sh heraldc herald_bench_measure
runs="${RUNS:-3}"
lines="${LINES:-5000}"
opts="${OPTS:--O0 -O2}"
cxx="${CXX:-g++}"
heraldc="$build/tools/heraldc/heraldc"
measure="$build/bench/schema/herald_bench_measure"
read -r -a sets <<<"${SETS:-herald proto fbs herald-host proto-host fbs-host}"

label() {
  case "$1" in
    herald) echo "Herald (heraldc build, one unit as herald_generate)" ;;
    herald-contexts) echo "Herald, one unit per context" ;;
    herald-includes) echo "Herald, the #include lines alone" ;;
    proto) echo "protobuf (protoc --cpp_out)" ;;
    fbs) echo "flatbuffers (flatc --cpp)" ;;
    herald-host) echo "Herald + host (herald::encode / decode)" ;;
    herald-base) echo "Herald, the build before (BASE_HERALDC)" ;;
    herald-host-base) echo "Herald + host, the build before (BASE_HERALDC)" ;;
    proto-host) echo "protobuf + host (Serialize / Parse)" ;;
    fbs-host) echo "flatbuffers host (Builder / Verifier)" ;;
  esac
}
# base SET: the set SET is compared with.
base() {
  case "$1" in
    *-host | *-host-base) echo fbs-host ;;
    *) echo fbs ;;
  esac
}

d="$work"
"$gen" --lines "$lines" --seed "$seed" --format herald-schema --host \
  --out "$d/herald-src" >"$d/gen"
"$gen" --lines "$lines" --seed "$seed" --format proto --host \
  --out "$d/proto-src" >/dev/null
"$gen" --lines "$lines" --seed "$seed" --format fbs --host \
  --out "$d/fbs-src" >/dev/null
# The host units, out of the schema sources.
for lang in herald proto fbs; do
  mkdir -p "$d/$lang-host"
  mv "$d/$lang-src/host.cpp" "$d/$lang-host/host.cpp"
done
# "schema of the N-line project: T records and sums, E events, F fields"
events="$(sed -n 2p "$d/gen" | awk '{ for (i = 1; i <= NF; ++i)
  if ($i == "events,") print $(i - 1) }')"
mkdir -p "$d/herald" "$d/proto" "$d/fbs"
"$heraldc" --color=never build "$d/herald-src" -o "$d/herald"
if [ -n "${BASE_HERALDC:-}" ]; then
  [ -d "${BASE_INCLUDE:-}" ] || { echo "BASE_INCLUDE: not a directory" >&2; exit 1; }
  mkdir -p "$d/herald-base" "$d/herald-base-program" "$d/herald-host-base"
  "$BASE_HERALDC" --color=never build "$d/herald-src" -o "$d/herald-base"
  (cd "$d/herald-base" && find . -name '*.cpp' | sed 's|^\./||' | LC_ALL=C sort) |
    sed 's|.*|#include "&"|' >"$d/herald-base-program/herald_program.cpp"
  cp "$d/herald-host/host.cpp" "$d/herald-host-base/host.cpp"
fi
protoc "--cpp_out=$d/proto" "-I$d/proto-src" "$d/proto-src/schema.proto"
flatc --cpp -o "$d/fbs" "$d/fbs-src/schema.fbs"
echo '#include "schema_generated.h"' >"$d/fbs/tu.cpp"
# herald_program.cpp as herald_generate (cmake/HeraldGenerate.cmake) writes
# it, outside the generated tree.
mkdir -p "$d/herald-program" "$d/herald-includes"
(cd "$d/herald" && find . -name '*.cpp' | sed 's|^\./||' | LC_ALL=C sort) |
  sed 's|.*|#include "&"|' >"$d/herald-program/herald_program.cpp"
{
  find "$d/herald" -name '*.cpp' -exec grep -h '^#include <' {} + |
    LC_ALL=C sort -u
  find "$d/herald" -name '*.cpp' -exec grep -h '^#include "' {} + |
    LC_ALL=C sort -u
} >"$d/herald-includes/includes.cpp"

# units SET: the translation units of one set; flags SET: its include paths.
units() {
  case "$1" in
    herald) echo "$d/herald-program/herald_program.cpp" ;;
    herald-contexts) find "$d/herald" -name '*.cpp' | sort ;;
    herald-includes) echo "$d/herald-includes/includes.cpp" ;;
    proto) echo "$d/proto/schema.pb.cc" ;;
    fbs) echo "$d/fbs/tu.cpp" ;;
    herald-host)
      echo "$d/herald-program/herald_program.cpp"
      echo "$d/herald-host/host.cpp" ;;
    herald-base) echo "$d/herald-base-program/herald_program.cpp" ;;
    herald-host-base)
      echo "$d/herald-base-program/herald_program.cpp"
      echo "$d/herald-host-base/host.cpp" ;;
    proto-host)
      echo "$d/proto/schema.pb.cc"
      echo "$d/proto-host/host.cpp" ;;
    fbs-host) echo "$d/fbs-host/host.cpp" ;;
  esac
}
flags() {
  case "$1" in
    herald | herald-contexts | herald-includes | herald-host)
      echo "-I$repo/runtime/include -I$d/herald" ;;
    herald-base | herald-host-base)
      echo "-I$BASE_INCLUDE -I$d/herald-base" ;;
    proto | proto-host) echo "-I$d/proto" ;;
    fbs | fbs-host) echo "-I$d/fbs" ;;
  esac
}
# written SET: "FILES files, LINES lines" of what the generator wrote (and
# the host unit's lines).
written() {
  local files n dir="$1"
  [ "$1" = herald-includes ] && { echo "—"; return; }
  [ "$1" = herald-contexts ] && dir=herald
  dir="${dir%-host}"
  [ "$1" = herald-host-base ] && dir=herald-base
  files="$(find "$d/$dir" -type f ! -name tu.cpp | wc -l)"
  n="$(find "$d/$dir" -type f ! -name tu.cpp -exec cat {} + | wc -l)"
  case "$1" in
    *-host | *-host-base) echo "$files files, $n lines + host $(wc -l <"$d/$1/host.cpp") lines" ;;
    *) echo "$files files, $n lines" ;;
  esac
}

# run SET OPT REPORT: one measured shell compiling every unit of SET in
# turn; wait4 counts the compilers it waited for.
run() {
  local set="$1" opt="$2" report="$3" status=0
  # shellcheck disable=SC2046 # flags and units are word lists
  "$measure" "$report" sh -c \
    'cxx="$1"; opt="$2"; flags="$3"; out="$4"; shift 4
     for u in "$@"; do
       $cxx -std=c++20 $opt $flags -c "$u" -o "$out/$(basename "$u").o" ||
         exit 1
     done' sh "$cxx" "$opt" "$(flags "$set")" "$d/obj" $(units "$set") \
    >"$d/stdout" 2>"$d/stderr" || status=$?
  if [ "$status" != 0 ] || [ -s "$d/stdout" ] || [ -s "$d/stderr" ]; then
    head -c 4000 "$d/stdout" "$d/stderr" >&2
    echo "$(label "$set") $opt failed or printed diagnostics (exit $status)" >&2
    exit 1
  fi
}

echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'),"\
     "$($cxx --version | head -1)."
echo "Generators: heraldc (Release), $(protoc --version), $(flatc --version)."
echo "Schema of the $lines-line Herald project (seed $seed): $(sed -n 2p "$d/gen" | cut -d: -f2 | sed 's/^ *//')."
echo "$runs fresh compilations of each set per level, interleaved; CPU time is"
echo "user + system of the compilers; median (min–max) over the runs; per 50"
echo "events is the median scaled by 50 / $events."
echo
echo "| generated code | flags | generated | translation units | CPU s | CPU s per 50 events | peak RSS | CPU time ÷ flatbuffers | load avg |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|"
mkdir -p "$d/obj"
for opt in $opts; do
  for set in "${sets[@]}"; do : >"$d/m_$set"; done
  load_start="$(load)"
  for i in $(seq "$runs"); do
    for k in "${!sets[@]}"; do
      set="${sets[$(((k + i) % ${#sets[@]}))]}"
      run "$set" "$opt" "$d/report"
      cat "$d/report" >>"$d/m_$set"
    done
  done
  load_end="$(load)"
  first=1
  for set in "${sets[@]}"; do
    base="$(field cpu_s <"$d/m_$(base "$set")" | median)"
    cpu="$(field cpu_s <"$d/m_$set" | median)"
    per50="$(awk -v t="$cpu" -v e="$events" 'BEGIN { printf "%.2f", t * 50 / e }')"
    ratio="$(awk -v t="$cpu" -v b="$base" 'BEGIN { printf "%.2f", t / b }')"
    loads="$([ "$first" = 1 ] && echo "$load_start → $load_end" || true)"
    echo "| $(label "$set") | \`$opt\` | $(written "$set") | $(units "$set" | wc -l) |"\
         "$(field cpu_s <"$d/m_$set" | stats %.2f) | $per50 |"\
         "$(mib "$(field peak_rss <"$d/m_$set" | max)") | $ratio | $loads |"
    first=0
  done
done
