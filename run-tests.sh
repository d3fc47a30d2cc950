#!/usr/bin/env bash
# Builds what is out of date in ./build (configuring it first if needed) and
# runs every test with CTest: unit tests, the runtime test and the golden
# programs. Extra arguments go to ctest (e.g. -R golden, -V).
# The exit status is ctest's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

if [[ ! -f build/CMakeCache.txt ]]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
cmake --build build -j"$(nproc 2>/dev/null || echo 2)"
exec ctest --test-dir build --output-on-failure -j2 "$@"
