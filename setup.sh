#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine for simplec: installs the build
# dependencies (apt is skipped when they are all present), configures and
# builds ./build, then compiles and runs examples/hello.smp.
# Needs root, or sudo, only when something has to be installed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

# llvm-19-dev pulls in what LLVM's CMake package refers to (libxml2-dev,
# libz3-dev, libffi-dev, ...); zlib and zstd are linked by codegen directly;
# gdb runs the debugging tests (test/cli/gdb_frames_test.sh, gdb_vars_test.sh).
packages=(cmake make gcc g++ libc6-dev llvm-19-dev libcli11-dev catch2 zlib1g-dev libzstd-dev gdb)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} > 0)); then
  echo "setup: installing ${missing[*]}"
  if [[ $(id -u) -eq 0 ]]; then
    as_root=()
  elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  else
    echo "setup: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages already installed"
fi

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$jobs"

echo "setup: compiling and running examples/hello.smp"
build/cmd/simplec examples/hello.smp -o build/hello
./build/hello
