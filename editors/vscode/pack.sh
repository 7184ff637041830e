#!/usr/bin/env bash
# pack.sh OUT.vsix [NPM_DIR]: packs the VS Code extension with
# `vsce package` (nothing is published). The extension's files and the one
# TextMate grammar (editors/textmate/herald.tmLanguage.json, copied to
# syntaxes/ in the staging directory, not kept twice in the repository)
# are staged in NPM_DIR/vscode beside the extension's installed
# dependencies. NPM_DIR (default: a new temporary directory) holds what
# editors/npm-install.sh installs; once installed, packing needs no network.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:?usage: pack.sh OUT.vsix [NPM_DIR]}
case $out in /*) ;; *) out=$PWD/$out ;; esac
npm_dir=${2:-$(mktemp -d)}

"$here/../npm-install.sh" "$npm_dir"
stage=$npm_dir/vscode
rm -rf "$stage/syntaxes"
mkdir -p "$stage/syntaxes"
cp "$here/package.json" "$here/extension.js" "$here/language-configuration.json" \
  "$here/README.md" "$here/.vscodeignore" "$stage/"
cp "$here/../textmate/herald.tmLanguage.json" "$stage/syntaxes/"
# The project has no licence file and no public repository URL to name.
(cd "$stage" && "$npm_dir/tools/node_modules/.bin/vsce" package \
  --skip-license --allow-missing-repository -o "$out")
