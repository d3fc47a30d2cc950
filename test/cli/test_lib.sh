# Sourced by the cli test scripts (after they set HERE): a scratch directory
# that becomes the current one and is removed at exit, the pass and fail
# counters, and check NAME EXPECTED ACTUAL.
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
pass=0 fail=0
check() {  # check NAME EXPECTED ACTUAL
  if [ "$2" == "$3" ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: $1"; echo "  expected: $2"; echo "  actual:   $3"; fi
}
