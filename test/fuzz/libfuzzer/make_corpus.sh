#!/usr/bin/env bash
# Writes the seed corpus of simplec_source_fuzzer into DIR: every golden
# test, compile-error test and example, one file each (libFuzzer names
# corpus files by their hash, so the names do not matter).
#   test/fuzz/libfuzzer/make_corpus.sh DIR
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
dir=${1:?usage: make_corpus.sh DIR}
mkdir -p "$dir"
n=0
while IFS= read -r -d '' f; do
  rel=${f#"$root"/}
  cp "$f" "$dir/${rel//\//_}"
  n=$((n + 1))
done < <(find "$root/test/golden" "$root/test/errors" "$root/examples" -name '*.smp' -print0)
echo "make_corpus: $n files in $dir"
