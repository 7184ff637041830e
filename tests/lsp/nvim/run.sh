#!/usr/bin/env bash
# Runs lsp_test.lua in a headless Neovim against HERALDC on a copy of the
# example's sources in a fresh directory, removed afterwards.
#   run.sh HERALDC EXAMPLE_DIR
# Exits 77 (the test's SKIP_RETURN_CODE) when nvim is not installed, unless
# CI=true: there a missing nvim is a failure.
set -euo pipefail

heraldc=$1 example=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if ! command -v nvim >/dev/null; then
  if [ "${CI:-}" = true ]; then
    echo "nvim lsp test: nvim is not installed (Debian's neovim package)" >&2
    exit 1
  fi
  echo "nvim lsp test: skipped, nvim is not installed"
  exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/herald-nvim-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/workspace" "$work/home"
cp "$example"/*.herald "$work/workspace/"
# Neovim's own state (the LSP log, shada) stays in the directory too.
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/config" \
  XDG_DATA_HOME="$work/home/data" XDG_STATE_HOME="$work/home/state" \
  XDG_CACHE_HOME="$work/home/cache"
export HERALDC="$heraldc" HERALD_NVIM_WORKSPACE="$work/workspace"
nvim --version | head -n 1
# stdin is not a terminal: --headless with nothing to read.
nvim --headless --clean -c "luafile $here/lsp_test.lua" </dev/null
