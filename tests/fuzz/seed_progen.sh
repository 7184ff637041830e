#!/usr/bin/env bash
# Writes programs of the random valid program generator (tests/progen) into
# libFuzzer corpora, so that the fuzzers start from well-typed programs of
# several contexts, which byte-level mutation rarely reaches:
#
#   tests/fuzz/seed_progen.sh PROGEN CORPUS_ROOT COUNT [FIRST]
#
# CORPUS_ROOT/checker gets one input per program (its files joined at
# `-- file` lines, as fuzz_checker splits them) and CORPUS_ROOT/parser one
# input per file. Point it at the scratch corpora of tools/dev/fuzz
# (/tmp/herald-fuzz, or $HERALD_FUZZ_WORK), not at the checked-in seeds.
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: seed_progen.sh PROGEN CORPUS_ROOT COUNT [FIRST]" >&2
  exit 2
fi
progen=$1 root=$2 count=$3 first=${4:-1}
mkdir -p "$root/checker/corpus" "$root/parser/corpus"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for seed in $(seq "$first" $((first + count - 1))); do
  rm -rf "$tmp/p"
  "$progen" --seed "$seed" --out "$tmp/p"
  joined="$root/checker/corpus/progen_$seed.herald"
  : >"$joined"
  for file in "$tmp"/p/*.herald; do
    { echo "-- file"; cat "$file"; } >>"$joined"
    cp "$file" "$root/parser/corpus/progen_${seed}_$(basename "$file")"
  done
done
echo "seed_progen: $count programs written under $root"
