#!/usr/bin/env bash
# check_package.sh EDITORS_DIR NPM_DIR OUT_DIR: packs the VS Code extension
# with editors/vscode/pack.sh and checks what the .vsix holds.
set -euo pipefail
editors=$1 npm_dir=$2 out=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$out"
rm -f "$out/herald.vsix"
"$editors/vscode/pack.sh" "$out/herald.vsix" "$npm_dir"
node "$here/check_vsix.js" "$out/herald.vsix" "$npm_dir" "$editors"
