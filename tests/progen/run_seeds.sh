#!/usr/bin/env bash
# Runs the random program generator over a range of seeds and checks each
# program (tests/progen/README.md):
#   1. `heraldc check --dump-ir` exits 0 and prints no diagnostic: the
#      program is valid by construction, and the IR verifier that `check`
#      runs finds it complete (an internal error exits 3);
#   2. `heraldc fmt` formats every file, the formatted program checks to the
#      same IR dump (each store's and invariant's heading, which quotes its
#      source text, aside), and formatting it again changes nothing;
#   3. for every STEP-th seed, `heraldc build` and the generated C++ compiled
#      with -Wall -Wextra -Wpedantic -Werror (-fsyntax-only) by each
#      compiler, BATCH programs per compiler invocation (their contexts are
#      named after the seed, so the programs share one translation unit).
# A failing seed's files stay under WORK/fail-SEED; the last line counts.
#
#   run_seeds.sh --heraldc H --progen P --work DIR --first N --count M
#                [--compile-step STEP] [--batch B] [--includes DIR]
#                [--cxx COMPILER]...
set -euo pipefail

heraldc="" progen="" work="" first=1 count=10 step=0 batch=4 includes=""
compilers=()
while [ $# -gt 0 ]; do
  case "$1" in
    --heraldc) heraldc=$2; shift 2 ;;
    --progen) progen=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --first) first=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --compile-step) step=$2; shift 2 ;;
    --batch) batch=$2; shift 2 ;;
    --includes) includes=$2; shift 2 ;;
    --cxx) compilers+=("$2"); shift 2 ;;
    *) echo "run_seeds.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
for var in heraldc progen work; do
  if [ -z "${!var}" ]; then echo "run_seeds.sh: --$var is required" >&2; exit 2; fi
done
if [ "$step" -gt 0 ] && { [ ${#compilers[@]} -eq 0 ] || [ -z "$includes" ]; }; then
  echo "run_seeds.sh: compiling needs --cxx and --includes" >&2
  exit 2
fi

rm -rf "$work"
mkdir -p "$work"
checked=0 compiled=0 internal=0 diagnosed=0 fmt_failed=0 compile_failed=0
failures=()

fail() {  # seed, kind, directory to keep
  failures+=("seed $1: $2")
  rm -rf "$work/fail-$1"
  cp -r "$3" "$work/fail-$1"
}

# The dump heads each store and invariant with its source text (as
# written, so layout and string escapes show); the IR below it is what is
# compared.
normalise() {
  sed -E 's/^( *store [A-Za-z0-9_]+: [^=]*) = .*/\1 = .../; s/^( *invariant [A-Za-z0-9_]+): .*/\1: .../' "$1"
}

pending=()  # seeds built and waiting for a compile batch
compile_batch() {
  [ ${#pending[@]} -gt 0 ] || return 0
  local unity="$work/batch-${pending[0]}.cpp"
  : >"$unity"
  local s f
  for s in "${pending[@]}"; do
    while IFS= read -r f; do echo "#include \"$f\"" >>"$unity"; done \
      < <(find "$work/s$s/gen" -name '*.cpp' | sort)
  done
  local cxx incs=("-I$includes")
  for s in "${pending[@]}"; do incs+=("-I$work/s$s/gen"); done
  for cxx in "${compilers[@]}"; do
    if ! "$cxx" -std=c++20 -Wall -Wextra -Wpedantic -Werror -fsyntax-only \
        "${incs[@]}" "$unity" >"$unity.$(basename "$cxx").log" 2>&1; then
      # Which program of the batch: each on its own.
      for s in "${pending[@]}"; do
        local one="$work/s$s/unity.cpp"
        find "$work/s$s/gen" -name '*.cpp' | sort | sed 's/.*/#include "&"/' >"$one"
        if ! "$cxx" -std=c++20 -Wall -Wextra -Wpedantic -Werror -fsyntax-only \
            "-I$includes" "-I$work/s$s/gen" "$one" >"$one.log" 2>&1; then
          compile_failed=$((compile_failed + 1))
          fail "$s" "$(basename "$cxx") rejects the generated C++ ($work/fail-$s/unity.cpp.log)" "$work/s$s"
        fi
      done
    fi
  done
  compiled=$((compiled + ${#pending[@]}))
  for s in "${pending[@]}"; do rm -rf "$work/s$s"; done
  pending=()
}

last=$((first + count - 1))
for seed in $(seq "$first" "$last"); do
  dir="$work/s$seed"
  mkdir -p "$dir"
  "$progen" --seed "$seed" --out "$dir/src"
  checked=$((checked + 1))
  if [ $((checked % 100)) -eq 0 ]; then
    echo "progen: $checked seeds so far (to $seed), ${#failures[@]} failures, $compiled compiled"
  fi
  set +e
  "$heraldc" --color=never check --schema-lock "$dir/lock" "$dir/src" --dump-ir \
    >"$dir/ir.txt" 2>"$dir/diagnostics.txt"
  status=$?
  set -e
  if [ $status -eq 3 ] || grep -q 'internal error' "$dir/diagnostics.txt"; then
    internal=$((internal + 1)); fail "$seed" "internal error" "$dir"; continue
  fi
  if [ $status -ne 0 ] || [ -s "$dir/diagnostics.txt" ]; then
    diagnosed=$((diagnosed + 1)); fail "$seed" "diagnostics ($work/fail-$seed/diagnostics.txt)" "$dir"; continue
  fi
  # Formatted in place in a copy; formatting it again must change nothing.
  cp -r "$dir/src" "$dir/fmt"
  ok=1
  if ! "$heraldc" --color=never fmt --write "$dir/fmt" >>"$dir/fmt.log" 2>&1 ||
     ! "$heraldc" --color=never fmt --check "$dir/fmt" >>"$dir/fmt.log" 2>&1; then
    ok=0
  fi
  if [ $ok -eq 1 ]; then
    set +e
    "$heraldc" --color=never check --schema-lock "$dir/lock" "$dir/fmt" --dump-ir \
      >"$dir/ir_fmt.txt" 2>>"$dir/fmt.log"
    status=$?
    set -e
    [ $status -eq 0 ] && cmp -s <(normalise "$dir/ir.txt") <(normalise "$dir/ir_fmt.txt") || ok=0
  fi
  if [ $ok -eq 0 ]; then
    fmt_failed=$((fmt_failed + 1)); fail "$seed" "fmt round trip (see $work/fail-$seed)" "$dir"; continue
  fi
  if [ "$step" -gt 0 ] && [ $((seed % step)) -eq 0 ]; then
    if ! "$heraldc" --color=never build --schema-lock "$dir/lock" "$dir/src" -o "$dir/gen" \
        >"$dir/build.log" 2>&1; then
      internal=$((internal + 1)); fail "$seed" "heraldc build failed" "$dir"; continue
    fi
    pending+=("$seed")
    [ ${#pending[@]} -ge "$batch" ] && compile_batch
    continue
  fi
  rm -rf "$dir"
done
compile_batch

for f in "${failures[@]}"; do echo "FAILED $f"; done
echo "progen: $checked seeds checked, $compiled compiled (${compilers[*]:-no compiler}), $internal internal errors, $diagnosed with diagnostics, $fmt_failed fmt round-trip failures, $compile_failed compile failures"
[ ${#failures[@]} -eq 0 ]
