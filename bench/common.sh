# Sourced by the bench/run-*-bench.sh scripts: the repository, the build
# directory (first argument, default <repo>/build-bench), SIZES and SEED
# from the environment, a scratch directory removed on exit, and a Release
# build of the generator plus the given benchmark targets.
#
#   bench_setup SCRIPT_NAME TARGET...    sets repo build sizes seed gen work
bench_setup() {
  local name="$1"
  shift
  repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  build="${BENCH_BUILD_DIR:-$repo/build-bench}"
  sizes="${SIZES:-10000 100000 1000000}"
  seed="${SEED:-1}"
  local log
  if ! log="$(cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release 2>&1 &&
              ninja -C "$build" herald_bench_gen "$@" 2>&1)"; then
    printf '%s\n' "$log" >&2
    echo "$name: the build failed" >&2
    exit 1
  fi
  gen="$build/bench/gen/herald_bench_gen"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
}

# field KEY: the value of one `key value` line of a measurement.
field() { awk -v k="$1" '$1 == k { print $2 }'; }

# bench_need_schema_compilers: flatc, protoc and capnp, for
# bench/schema/run.sh. Installs the Debian packages when one is missing and
# apt-get can be used (as root), so that a fresh machine gets them when the
# bench runs, not when the tests do.
bench_need_schema_compilers() {
  local missing=0 tool
  for tool in flatc protoc capnp; do
    command -v "$tool" >/dev/null || missing=1
  done
  [ "$missing" = 0 ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get install -y protobuf-compiler flatbuffers-compiler capnproto >&2 ||
      { apt-get update >&2 &&
        apt-get install -y protobuf-compiler flatbuffers-compiler capnproto >&2; }
  fi
  for tool in flatc protoc capnp; do
    if ! command -v "$tool" >/dev/null; then
      echo "$tool is missing: apt-get install protobuf-compiler" \
           "flatbuffers-compiler capnproto" >&2
      exit 1
    fi
  done
}

# Summaries of the numbers on stdin, for the tables the bench scripts print.
#   median            the median
#   stats FORMAT      "median (min–max)", each printed with FORMAT
#   max               the largest
#   mib BYTES         BYTES in MiB, one decimal
#   load              the 1-minute load average
median() {
  sort -g | awk '{ v[NR] = $1 } END {
    print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
stats() {
  sort -g | awk -v f="$1" '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf f " (" f "–" f ")", m, v[1], v[NR] }'
}
max() { sort -g | tail -1; }
mib() { awk -v n="$1" 'BEGIN { printf "%.1f MiB", n / 1048576 }'; }
load() { cut -d' ' -f1 /proc/loadavg; }

# bench_need_cpp_runtimes: the headers protoc's and flatc's generated C++
# compiles against, for bench/codegen/compile.sh; installed like
# bench_need_schema_compilers.
bench_need_cpp_runtimes() {
  local missing=0
  [ -f /usr/include/google/protobuf/message.h ] || missing=1
  [ -f /usr/include/flatbuffers/flatbuffers.h ] || missing=1
  [ "$missing" = 0 ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get install -y libprotobuf-dev libflatbuffers-dev >&2 ||
      { apt-get update >&2 &&
        apt-get install -y libprotobuf-dev libflatbuffers-dev >&2; }
  fi
  if [ ! -f /usr/include/google/protobuf/message.h ] ||
     [ ! -f /usr/include/flatbuffers/flatbuffers.h ]; then
    echo "protobuf or flatbuffers headers are missing: apt-get install" \
         "libprotobuf-dev libflatbuffers-dev" >&2
    exit 1
  fi
}
