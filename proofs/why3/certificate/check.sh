#!/usr/bin/env bash
# Checks the certificate examples with ../check.sh (cvc4, then z3 on what cvc4 left open):
# prelude.mlw and sum2.mlw must be proved, sum2_weak.mlw must not.
#
# usage: proofs/why3/certificate/check.sh   (from anywhere; writes ../.why3.conf if missing)
set -u
here=$(cd "$(dirname "$0")" && pwd)
conf=$here/../.why3.conf
[ -f "$conf" ] || why3 --config="$conf" config detect >/dev/null 2>&1
status=0
for f in prelude.mlw sum2.mlw; do
  "$here/../check.sh" "$conf" "$here/$f" split_goal_full 20 cvc4 z3 || status=1
done
log=$(mktemp); trap 'rm -f "$log"' EXIT
if "$here/../check.sh" "$conf" "$here/sum2_weak.mlw" split_goal_full 5 cvc4 z3 >"$log" 2>&1; then
  cat "$log"; echo "ERROR: sum2_weak.mlw (weakened invariant) was proved"; status=1
else
  echo "sum2_weak.mlw rejected as expected:"; sed 's/^/  /' "$log"
fi
exit "$status"
