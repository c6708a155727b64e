#!/usr/bin/env bash
# check_assumptions.sh DIR LOGICAL THEOREMS [EXTRA_DIR...]
#   Fails (exit 1) unless
#   (1) no .v file in DIR (or in an EXTRA_DIR) contains one of the words that introduce or leave an
#       unproved assumption (listed in FORBIDDEN below), and
#   (2) `Print Assumptions` of every theorem listed in THEOREMS (one `Module.name`
#       per line, `#` comments allowed) prints "Closed under the global context", and
#   (3) every `Theorem` and `Corollary` declared at the start of a line of DIR/*.v is
#       listed in THEOREMS.
#   DIR must already be compiled, bound to the logical name LOGICAL.
set -euo pipefail
dir=$1; logical=$2; theorems=$3; shift 3
vfiles=("$dir"/*.v)
for d in "$@"; do vfiles+=("$d"/*.v); done
COQC=${COQC:-coqc}
FORBIDDEN='Admitted|admit|give_up|Axiom|Axioms|Parameter|Parameters|Hypothesis|Hypotheses|Conjecture'

status=0
if grep -nwE "$FORBIDDEN" "${vfiles[@]}"; then
  echo "check_assumptions: forbidden word(s) above" >&2
  status=1
fi

names=$(grep -v '^[[:space:]]*\(#\|$\)' "$theorems" | awk '{print $1}')
count=$(printf '%s\n' "$names" | wc -l)
modules=$(printf '%s\n' "$names" | sed 's/\.[^.]*$//' | sort -u)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "$dir"/*.v; do
  m=$(basename "$f" .v)
  grep -oE "^(Theorem|Corollary)[[:space:]]+[A-Za-z_0-9']+" "$f" | awk -v m="$m" '{print m "." $2}' || true
done | sort -u > "$tmp/declared"
printf '%s\n' "$names" | sort -u > "$tmp/listed"
missing=$(comm -23 "$tmp/declared" "$tmp/listed")
if [ -n "$missing" ]; then
  printf '%s\n' "$missing" >&2
  echo "check_assumptions: the theorem(s) above are not listed in $theorems" >&2
  status=1
fi
{
  for m in $modules; do echo "From $logical Require $m."; done
  for n in $names; do
    echo "Print Assumptions $logical.$n."
  done
} > "$tmp/PrintAssumptions.v"
out=$("$COQC" -Q "$dir" "$logical" "$tmp/PrintAssumptions.v" 2>&1) || {
  echo "$out" >&2; echo "check_assumptions: coqc failed on the Print Assumptions file" >&2; exit 1; }
closed=$(printf '%s\n' "$out" | grep -c '^Closed under the global context$' || true)
if [ "$closed" -ne "$count" ]; then
  echo "$out" >&2
  echo "check_assumptions: only $closed of $count theorems are closed under the global context" >&2
  status=1
fi
[ "$status" -eq 0 ] && echo "check_assumptions: $count theorems closed under the global context, no forbidden word"
exit "$status"
