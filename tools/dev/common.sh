# Shared by the project's developer scripts: installs what is missing from
# Debian 12 and configures the build. Sourced, not run.
set -euo pipefail

HERALD_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HERALD_PACKAGES=(
  cmake ninja-build g++ llvm-14-dev
  libfmt-dev libcli11-dev doctest-dev re2c bison nlohmann-json3-dev
  libssl-dev  # the runtime's event ids (OpenSSL's RAND_bytes)
  libsqlite3-dev libsqlitecpp-dev
  libnats-dev nats-server pkgconf
  graphviz clang-tidy clang-14
  neovim  # tests/lsp/nvim: the language server in a real editor
)
# Only tools/dev/fuzz needs this: it adds it to HERALD_PACKAGES (clang-14,
# which the fuzz targets are built with, is in HERALD_PACKAGES: the tests
# compile generated C++ with clang++ 14 too).
HERALD_FUZZ_PACKAGES=(libfuzzer-14-dev)

herald_install_deps() {
  local missing=()
  for pkg in "${HERALD_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$pkg")
  done
  # The editor tests (tests/editors) run node and npm. Debian's are installed
  # only when the commands are missing: a machine may have another Node.js
  # build on PATH that bundles npm, which Debian's npm package conflicts with.
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v npm >/dev/null 2>&1 || missing+=(npm)
  if ((${#missing[@]})); then
    echo "herald: installing missing Debian packages: ${missing[*]}"
    if [ "$(id -u)" -ne 0 ]; then
      echo "herald: run as root (or install these packages first)" >&2
      exit 2
    fi
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

# herald_configure BUILD_DIR [cmake args...]
herald_configure() {
  local dir=$1
  shift
  cmake -S "$HERALD_ROOT" -B "$dir" -G Ninja "$@" >/dev/null
}
