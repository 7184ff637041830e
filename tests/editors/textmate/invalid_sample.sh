#!/usr/bin/env bash
# invalid_sample.sh HERALDC FILE: the sample of rejected input is rejected
# for what it is meant to show: malformed numbers (E0005), escapes (E0002,
# E0003) and unterminated strings (E0001).
set -uo pipefail
out=$("$1" parse "$2" 2>&1)
status=$?
if [ $status -ne 1 ]; then
  echo "heraldc parse exited $status, expected 1:" >&2
  echo "$out" >&2
  exit 1
fi
for code in E0001 E0002 E0003 E0005; do
  grep -q "error\[$code\]" <<<"$out" || {
    echo "no error[$code] for $2:" >&2
    echo "$out" >&2
    exit 1
  }
done
echo "invalid sample: rejected with E0001, E0002, E0003 and E0005"
