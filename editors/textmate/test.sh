#!/usr/bin/env bash
# test.sh NPM_DIR [GRAMMAR]: runs vscode-tmgrammar-test over the annotated
# samples in tests/ against the grammar (herald.tmLanguage.json by
# default). NPM_DIR holds what editors/npm-install.sh installs.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
npm_dir=${1:?usage: test.sh NPM_DIR [GRAMMAR]}
grammar=${2:-$here/herald.tmLanguage.json}
cd "$here"
"$npm_dir/tools/node_modules/.bin/vscode-tmgrammar-test" -g "$grammar" 'tests/*.herald'
