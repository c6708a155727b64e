#!/usr/bin/env bash
# test_checker.sh: the assumption checker must reject deliberately bad developments
# (an admitted lemma; an assumption introduced without any forbidden word) and accept
# a good one.  Exit 0 iff it behaves so.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
COQC=${COQC:-coqc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect() { # expect OK|FAIL NAME CONTENT [REASON: a regexp the checker's log must match]
  local want=$1 name=$2 content=$3 reason=${4:-} d="$tmp/$2"
  mkdir -p "$d"
  printf '%s\n' "$content" > "$d/T.v"
  (cd "$d" && "$COQC" -Q . Bad T.v >/dev/null 2>&1)
  echo "T.$name" > "$d/theorems.txt"
  if bash "$here/check_assumptions.sh" "$d" Bad "$d/theorems.txt" >"$d/log" 2>&1; then got=OK; else got=FAIL; fi
  if [ "$got" != "$want" ]; then
    cat "$d/log" >&2
    echo "test_checker: case $name: expected $want, got $got" >&2
    exit 1
  fi
  if [ -n "$reason" ] && ! grep -qE "$reason" "$d/log"; then
    cat "$d/log" >&2
    echo "test_checker: case $name: failed, but not for the expected reason /$reason/" >&2
    exit 1
  fi
  echo "test_checker: case $name: $got as expected"
}

expect FAIL admitted 'Lemma admitted : False. Proof. Admitted.' 'forbidden word'
# No forbidden word: only `Print Assumptions` can see this one.
expect FAIL hidden 'Context (oops : False). Lemma hidden : False. Proof. exact oops. Qed.' \
  'oops : False'
# A proved theorem that theorems.txt does not list.
expect FAIL unlisted $'Lemma unlisted : True. Proof. exact I. Qed.\nTheorem other : True. Proof. exact I. Qed.' \
  'not listed'
expect OK good 'Lemma good : True. Proof. exact I. Qed.'
