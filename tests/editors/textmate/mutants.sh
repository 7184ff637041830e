#!/usr/bin/env bash
# mutants.sh GRAMMAR_DIR NPM_DIR WORK_DIR: the annotated samples must fail
# against each broken copy of the grammar below, so a rule whose scope they
# do not check is noticed.
set -euo pipefail
grammar_dir=$1 npm_dir=$2 work=$3
mkdir -p "$work"

# mutant NAME JS: JS edits `g`, the parsed grammar.
mutant() {
  local name=$1 edit=$2 out="$work/$1.tmLanguage.json"
  node -e '
    const fs = require("fs");
    const g = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    '"$edit"'
    fs.writeFileSync(process.argv[2], JSON.stringify(g));
  ' "$grammar_dir/herald.tmLanguage.json" "$out"
  if "$grammar_dir/test.sh" "$npm_dir" "$out" >"$work/$name.log" 2>&1; then
    echo "mutant $name: the samples still pass (see $work/$name.log)" >&2
    return 1
  fi
  grep -q "missing required scopes\|prohibited scopes" "$work/$name.log" || {
    echo "mutant $name: the run failed without a scope mismatch:" >&2
    cat "$work/$name.log" >&2
    return 1
  }
  echo "mutant $name: caught"
}

r=g.repository
mutant control-keywords "$r.keywords.patterns[0].name = \"keyword.other.herald\";"
mutant no-doc-blocks "$r.comments.patterns.shift();"
mutant string-runs-past-its-line "$r.strings.patterns[0].end = \"(\\\")\";"
mutant no-interpolation-parens "$r.interpolation.patterns.shift();"
mutant no-durations "$r.numbers.patterns.shift();"
mutant no-qualified-names "$r.names.patterns.shift();"
mutant no-given-dependencies "$r.declarations.patterns.find(p => p.begin && p.begin.includes(\"given\")).patterns.splice(1, 1);"
