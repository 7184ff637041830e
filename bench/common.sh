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
