#!/usr/bin/env bash
# npm-install.sh DEST: installs the editor packages' npm dependencies, at
# the exact versions of their package-lock.json files, outside the source
# tree:
#   DEST/tools   editors/package.json: vscode-tmgrammar-test and @vscode/vsce
#   DEST/vscode  editors/vscode/package.json: the extension's runtime
#                dependencies (vscode-languageclient), which its .vsix carries
# Each is installed with `npm ci` only when its lock file differs from the
# one installed last, so a second run needs no network.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dest=${1:?usage: npm-install.sh DEST}

install_one() {
  local src=$1 dir=$2
  shift 2
  mkdir -p "$dir"
  if [ -d "$dir/node_modules" ] && cmp -s "$src/package-lock.json" "$dir/installed-lock.json"; then
    echo "editors: $dir is up to date"
    return
  fi
  cp "$src/package.json" "$src/package-lock.json" "$dir/"
  rm -f "$dir/installed-lock.json"
  # No install scripts: nothing here needs one (vsce's optional keytar,
  # which would build or download a native module, is for publishing).
  (cd "$dir" && npm ci --prefer-offline --ignore-scripts --no-audit --no-fund "$@")
  cp "$src/package-lock.json" "$dir/installed-lock.json"
}

install_one "$here" "$dest/tools" --omit=optional
install_one "$here/vscode" "$dest/vscode" --omit=dev
