#!/usr/bin/env bash
# bench-invariants.sh [OUT.md]: certsym prove --infer against Frama-C's Eva plugin on the
# SV-COMP tasks of testdata/svcomp (each task's C program in testdata/svcomp/c/, its IMP
# transcription and expected verdict beside it). It prints a Markdown table, one row per task
# (expected verdict, Frama-C's answer and time, certsym's answer and time), then the totals, and
# writes the same to OUT.md when given. Not part of make check: run it with make bench-invariants.
#
# Environment: LIMIT (seconds per task and per tool, default 10), CERTSYM (the certsym binary;
# built into a temporary directory when unset), EVA_OPTS (Eva's options, default
# "-eva-precision 5"), TASKS (a glob of task names under testdata/svcomp, default *), KEEP (set:
# keep the logs).
#
# Frama-C (Debian package frama-c-base: scripts/install-deps.sh framac) reads the C file with a
# prelude included before it (-cpp-extra-args="-include prelude.h") that turns every error call of
# SV-COMP's idioms into a call of one function whose contract is `requires \false`: reach_error
# (whatever its body: empty, assert(0), __assert_fail) and __VERIFIER_error are macros naming it,
# so a task's definition of reach_error becomes the definition of that function, its calls calls
# of it. The prelude also turns the attribute noreturn of those declarations into unused: Eva
# reports no status for the precondition of a function declared noreturn, so without it a
# reachable error call would go unreported. Eva checks the precondition at each call it reaches:
# a call it cannot rule out is an alarm on that precondition (status invalid or unknown). The
# nondeterministic inputs (__VERIFIER_nondet_int and the others) stay the extern functions the
# tasks declare: Eva gives a function without body the default contract that assigns its result
# any value of its type, which is what SV-COMP means by them.
#
# Frama-C's answer: "proved" when the analysis ran to its end and reported no alarm on the
# error function's precondition (no run reaches it, as Eva over-approximates every run);
# "alarm" when it did (on a false task that is the right answer, on a true one a false alarm);
# "timeout" when the limit cut it; "error" when Frama-C stopped for another reason (KEEP=1
# keeps the work directory with every log and prints its path). Alarms of other kinds (signed overflow, for instance) are
# not SV-COMP's unreach-call property and are not counted; Eva goes on past them assuming
# the operation was defined.
# certsym's answer is the answer: line of certsym prove --infer --timeout LIMIT: proved, refuted,
# unknown; timeout when the process outlived the limit by 5 s, or ended at its time bound without
# a report (a step that did not stop within 2 s of the bound); error otherwise.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
limit=${LIMIT:-10}
eva_opts=${EVA_OPTS:--eva-precision 5}
tasks=${TASKS:-*}
out=${1:-}

if ! command -v frama-c >/dev/null 2>&1; then
  echo "bench-invariants.sh: frama-c is not installed (scripts/install-deps.sh framac installs it)" >&2
  exit 1
fi

work=$(mktemp -d)
if [ -n "${KEEP:-}" ]; then
  echo "bench-invariants.sh: logs in $work" >&2
else
  trap 'rm -rf "$work"' EXIT
fi
certsym=${CERTSYM:-}
if [ -z "$certsym" ]; then
  certsym=$work/certsym
  (cd "$root" && go build -o "$certsym" ./cmd/certsym) || exit 1
fi

cat >"$work/prelude.h" <<'EOF'
/* Included before each SV-COMP task: every error call becomes a call of __certsym_fail, whose
   precondition no reachable call can satisfy; noreturn would hide that precondition's status. */
/*@ requires certsym_error_unreachable: \false; assigns \nothing; */
void __certsym_fail(void);
#define reach_error(...) __certsym_fail()
#define __VERIFIER_error __certsym_fail
#define __noreturn__ __unused__
EOF

# now: seconds since the epoch with milliseconds.
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

rows=()
declare -A fc_tot cs_tot
fc_true_proved=0; fc_false_alarm=0; fc_true_alarm=0; fc_false_proved=0
cs_true_proved=0; cs_false_refuted=0; cs_false_proved=0; cs_true_refuted=0
n_true=0; n_false=0
fc_time=0; cs_time=0
for imp in "$root"/testdata/svcomp/$tasks.imp; do
  name=$(basename "$imp" .imp)
  c=$root/testdata/svcomp/c/$name.c
  [ -f "$c" ] || continue
  verdict=$(sed -n 's/^# Expected verdict: unreach-call \(true\|false\).*/\1/p' "$imp" | head -1)
  [ -n "$verdict" ] || { echo "bench-invariants.sh: $imp: no expected verdict" >&2; continue; }

  log=$work/$name.eva.log
  t0=$(now)
  # shellcheck disable=SC2086
  (cd "$work" && timeout "$limit" frama-c -cpp-extra-args="-include $work/prelude.h" \
      -eva $eva_opts "$c" >"$log" 2>&1)
  rc=$?
  t1=$(now)
  fct=$(elapsed "$t0" "$t1")
  if [ $rc -eq 124 ]; then
    fc=timeout
  elif grep -q "precondition 'certsym_error_unreachable' got status" "$log"; then
    fc=alarm
  elif [ $rc -eq 0 ] && grep -q "ANALYSIS SUMMARY" "$log"; then
    fc=proved
  else
    fc=error
  fi

  t0=$(now)
  cs=$(timeout $((limit + 5)) "$certsym" prove --infer --quiet --timeout "${limit}s" "$imp" 2>"$work/$name.certsym.err" | grep -m1 '^answer:')
  rc=$?
  t1=$(now)
  cst=$(elapsed "$t0" "$t1")
  case "$cs" in
    "answer: proved"*) cs=proved ;;
    "answer: refuted"*) cs=refuted ;;
    "answer: unknown"*) cs=unknown ;;
    *) if [ "$(awk -v t="$cst" -v l="$limit" 'BEGIN { print (t >= l + 5) }')" = 1 ] ||
          grep -q "time bound" "$work/$name.certsym.err"; then cs=timeout; else cs=error; fi ;;
  esac

  fc_tot[$fc]=$(( ${fc_tot[$fc]:-0} + 1 ))
  cs_tot[$cs]=$(( ${cs_tot[$cs]:-0} + 1 ))
  fc_time=$(awk -v a="$fc_time" -v b="$fct" 'BEGIN { print a + b }')
  cs_time=$(awk -v a="$cs_time" -v b="$cst" 'BEGIN { print a + b }')
  if [ "$verdict" = true ]; then
    n_true=$((n_true + 1))
    [ "$fc" = proved ] && fc_true_proved=$((fc_true_proved + 1))
    [ "$fc" = alarm ] && fc_true_alarm=$((fc_true_alarm + 1))
    [ "$cs" = proved ] && cs_true_proved=$((cs_true_proved + 1))
    [ "$cs" = refuted ] && cs_true_refuted=$((cs_true_refuted + 1))
  else
    n_false=$((n_false + 1))
    [ "$fc" = alarm ] && fc_false_alarm=$((fc_false_alarm + 1))
    [ "$fc" = proved ] && fc_false_proved=$((fc_false_proved + 1))
    [ "$cs" = refuted ] && cs_false_refuted=$((cs_false_refuted + 1))
    [ "$cs" = proved ] && cs_false_proved=$((cs_false_proved + 1))
  fi
  rows+=("| $name | $verdict | $fc | $fct | $cs | $cst |")
  echo "$name $verdict frama-c=$fc ${fct}s certsym=$cs ${cst}s" >&2
done

counts() {
  local -n tot=$1
  local s="" k
  for k in proved alarm refuted unknown timeout error; do
    [ -n "${tot[$k]:-}" ] && s="$s${s:+, }${tot[$k]} $k"
  done
  echo "$s"
}

{
  echo "| task | verdict | Frama-C Eva | time (s) | certsym prove --infer | time (s) |"
  echo "|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "$((n_true + n_false)) tasks ($n_true true, $n_false false), limit ${limit} s per task and tool, Eva options: $eva_opts."
  echo
  echo "| | true tasks proved | false tasks found (alarm / refuted) | wrong answers (true task refuted, false task proved) | answers | total time (s) |"
  echo "|---|---|---|---|---|---|"
  echo "| Frama-C Eva | $fc_true_proved of $n_true | $fc_false_alarm of $n_false | $fc_false_proved false tasks proved ($fc_true_alarm false alarms on true tasks) | $(counts fc_tot) | $(printf '%.1f' "$fc_time") |"
  echo "| certsym prove --infer | $cs_true_proved of $n_true | $cs_false_refuted of $n_false | $((cs_true_refuted + cs_false_proved)) | $(counts cs_tot) | $(printf '%.1f' "$cs_time") |"
} | if [ -n "$out" ]; then tee "$out"; else cat; fi
