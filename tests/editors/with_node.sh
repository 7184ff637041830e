#!/usr/bin/env bash
# with_node.sh COMMAND...: runs COMMAND when node and npm are on PATH.
# Without them the test is skipped (exit 77, the tests' SKIP_RETURN_CODE),
# except under CI=true, where tools/dev/common.sh installs them and their
# absence is a failure.
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  exec "$@"
fi
echo "editors: node and npm are not on PATH (Debian: apt-get install nodejs npm);" \
  "the editor tests need them" >&2
if [ "${CI:-}" = true ]; then
  echo "editors: CI=true: failing instead of skipping" >&2
  exit 1
fi
exit 77
