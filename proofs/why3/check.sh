#!/usr/bin/env bash
# Prove every goal of one Why3 file with the Debian provers.
#
# usage: check.sh CONFIG FILE TRANSFORMATION TIMELIMIT PROVER...
#
# The file is split with TRANSFORMATION; the first PROVER is run on every
# sub-goal, each next PROVER only when some sub-goal is still not proved (it
# is run on the whole file and only its answers on the still-open sub-goals
# are used; sub-goals come out in the same order for every prover).  A
# sub-goal counts as proved only when some prover answers exactly "Valid".
# Prints, for the file, how many sub-goals each prover closed; exits 1 if any
# sub-goal stays open or if why3 reports an error (parse, typing, ...).
set -u
conf=$1; file=$2; trans=$3; tl=$4; shift 4
dir=$(dirname "$file")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

status=()   # per sub-goal: prover that proved it, or empty
keys=()
n=-1
for p in "$@"; do
  if (( n >= 0 )); then
    open=0; for s in "${status[@]}"; do [[ -z $s ]] && open=$((open+1)); done
    (( open == 0 )) && break
  fi
  out=$tmp/$p.out
  why3 -C "$conf" prove -L "$dir" -a "$trans" -P "$p" -t "$tl" "$file" >"$out" 2>&1
  rc=$?
  # one line per sub-goal: "<location> | <goal> | <answer>"
  awk '/^File / {loc=$0; next}
       /^(Sub-goal|Goal) / {g=$0; next}
       /^Prover result is: / {a=$0; sub(/^Prover result is: /,"",a);
                              split(a, w, /[ (]/); print loc " | " g " | " w[1]}' \
      "$out" >"$tmp/$p.res"
  m=$(wc -l <"$tmp/$p.res")
  # why3 exits with 2 when some goal is not proved; anything else that is
  # not 0, or no answer at all, is an error (parse, typing, prover setup)
  if { (( rc != 0 )) && (( rc != 2 )); } || (( m == 0 )); then
    echo "FAIL $file: why3 with $p exited with $rc and $m answers:"; tail -20 "$out"; exit 1
  fi
  if (( n < 0 )); then
    n=$m
    for ((i=0;i<n;i++)); do status[i]=""; done
  elif (( m != n )); then
    echo "FAIL $file: $p saw $m sub-goals, the first prover saw $n"; exit 1
  fi
  i=0
  while IFS= read -r line; do
    key=${line% | *}; ans=${line##* | }
    if (( ${#keys[@]} < n )); then keys[i]=$key
    elif [[ ${keys[i]} != "$key" ]]; then
      echo "FAIL $file: sub-goal $i differs between provers"; exit 1
    fi
    if [[ -z ${status[i]} && $ans == Valid ]]; then status[i]=$p; fi
    i=$((i+1))
  done <"$tmp/$p.res"
done

summary=""
for p in "$@"; do
  c=0; for s in "${status[@]}"; do [[ $s == "$p" ]] && c=$((c+1)); done
  summary="$summary $p=$c"
done
bad=0
for ((i=0;i<n;i++)); do
  if [[ -z ${status[i]} ]]; then bad=$((bad+1)); echo "  NOT PROVED: ${keys[i]}"; fi
done
echo "$file: $n sub-goals;$summary; unproved=$bad"
(( bad == 0 ))
