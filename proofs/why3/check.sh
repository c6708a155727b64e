#!/usr/bin/env bash
# Prove every goal of one Why3 file with the Debian provers.
#
# usage: [PART=K/N] check.sh CONFIG FILE TRANSFORMATION TIMELIMIT PROVER...
#
# With PART=K/N only part K of N of the file's goals is checked: the goals (lemmas and the
# verification conditions of functions, in the order why3 lists them) whose index is K modulo N,
# so that the N parts of a file together check every goal, each once, and can run side by side.
#
# The file is split with TRANSFORMATION and the first PROVER is run on every
# sub-goal.  Each next PROVER is run only on the top-level goals (why3 -T/-G)
# that still have an open sub-goal, and only its answers on open sub-goals
# are used (a goal splits into the same sub-goals, in the same order, for
# every prover).  A sub-goal counts as proved only when some prover answers
# exactly "Valid".  Prints how many sub-goals each prover closed; exits 1 if
# any sub-goal stays open or if why3 reports an error (parse, typing, ...).
set -u
conf=$1; file=$2; trans=$3; tl=$4; shift 4
dir=$(dirname "$file")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# run why3; writes one line per sub-goal "<goal> | <answer>" to $2
run() { # prover outfile [-T M -G g]
  local p=$1 res=$2; shift 2
  why3 -C "$conf" prove -L "$dir" -a "$trans" -P "$p" -t "$tl" "$file" "$@" >"$res.raw" 2>&1
  local rc=$?
  awk '/^(Sub-goal|Goal) / {g=$0; sub(/^.* goal /,"",g); sub(/^Goal /,"",g); sub(/\.$/,"",g); next}
       /^Prover result is: / {a=$0; sub(/^Prover result is: /,"",a);
                              split(a, w, /[ (]/); print g " | " w[1]}' "$res.raw" >"$res"
  local m; m=$(wc -l <"$res")
  # why3 exits with 2 when some goal is not proved; any other failure, or no
  # answer at all, is an error (parse, typing, prover setup)
  if { (( rc != 0 )) && (( rc != 2 )); } || (( m == 0 )); then
    echo "FAIL $file: why3 with $p $* exited with $rc and $m answers:"; tail -20 "$res.raw"; exit 1
  fi
}

# the selection of part K of N: -T THEORY -G GOAL... for the goals whose index is K mod N
select=()
part=${PART:-}
if [[ -n $part ]]; then
  k=${part%/*}; parts=${part#*/}
  why3 -C "$conf" prove -L "$dir" "$file" >"$tmp/list" 2>&1 || { echo "FAIL $file: why3 cannot list its goals:"; tail -20 "$tmp/list"; exit 1; }
  mapfile -t listed < <(awk '/^theory / {t=$2} /^  (goal|lemma) / {g=$2; sub(/ *:$/,"",g); print t " " g}' "$tmp/list")
  (( ${#listed[@]} > 0 )) || { echo "FAIL $file: why3 listed no goal"; exit 1; }
  cur=""
  for ((i=0;i<${#listed[@]};i++)); do
    (( i % parts == k )) || continue
    t=${listed[i]% *}; g=${listed[i]#* }
    [[ $t == "$cur" ]] || { select+=(-T "$t"); cur=$t; }
    select+=(-G "$g")
  done
  (( ${#select[@]} > 0 )) || { echo "$file part $part: no goal (${#listed[@]} goals in all)"; exit 0; }
fi

first=$1; shift
run "$first" "$tmp/all" "${select[@]+"${select[@]}"}"
goals=(); status=()
while IFS= read -r line; do
  goals+=("${line% | *}")
  if [[ ${line##* | } == Valid ]]; then status+=("$first"); else status+=(""); fi
done <"$tmp/all"
n=${#goals[@]}

# module (theory) declaring a goal: the last "module" line before its name
module_of() {
  local g=${1%\'vc}
  awk -v g="$g" '/^ *(module|theory) / {m=$2}
    { for (i=1;i<=NF;i++) { t=$i; gsub(/[(:]/," ",t); split(t,u," ");
        if (u[1]==g && $0 ~ /(lemma|let|with|goal|function|predicate)/) { print m; exit } } }' "$file"
}

for p in "$@"; do
  todo=()
  for ((i=0;i<n;i++)); do
    [[ -z ${status[i]} ]] || continue
    g=${goals[i]}; seen=0
    for t in "${todo[@]+"${todo[@]}"}"; do [[ $t == "$g" ]] && seen=1; done
    (( seen )) || todo+=("$g")
  done
  (( ${#todo[@]} == 0 )) && break
  for g in "${todo[@]}"; do
    m=$(module_of "$g")
    if [[ -z $m ]]; then echo "  (cannot find the module of goal $g)"; continue; fi
    run "$p" "$tmp/retry" -T "$m" -G "$g"
    idx=(); for ((i=0;i<n;i++)); do [[ ${goals[i]} == "$g" ]] && idx+=("$i"); done
    j=0
    while IFS= read -r line; do
      (( j < ${#idx[@]} )) || { echo "FAIL $file: $p split $g differently"; exit 1; }
      i=${idx[j]}
      [[ ${line% | *} == "$g" ]] || { echo "FAIL $file: $p answered for another goal"; exit 1; }
      if [[ -z ${status[i]} && ${line##* | } == Valid ]]; then status[i]=$p; fi
      j=$((j+1))
    done <"$tmp/retry"
    (( j == ${#idx[@]} )) || { echo "FAIL $file: $p split $g differently"; exit 1; }
  done
done

summary=""
for p in "$first" "$@"; do
  c=0; for s in "${status[@]}"; do [[ $s == "$p" ]] && c=$((c+1)); done
  summary="$summary $p=$c"
done
bad=0
for ((i=0;i<n;i++)); do
  if [[ -z ${status[i]} ]]; then bad=$((bad+1)); echo "  NOT PROVED: sub-goal $((i+1)) of ${goals[i]}"; fi
done
echo "$file${part:+ part $part}: $n sub-goals;$summary; unproved=$bad ($SECONDS s)"
(( bad == 0 ))
