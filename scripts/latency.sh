#!/usr/bin/env bash
# latency.sh [TRIES]: how long each command that runs a program takes to exit after SIGINT, and
# after its --timeout deadline: TRIES runs (default 20) of run, exec, replay, concolic and verify
# on programs that would run for ever, each signalled (or bounded by --timeout) after DELAY
# seconds (1; verify is also signalled at 3 s, in its replay of the tests). Prints the median and
# the worst latency in milliseconds, from the signal (or the deadline) to the end of the process,
# and the exit statuses seen.
set -euo pipefail
cd "$(dirname "$0")/.."
tries=${1:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/certsym" ./cmd/certsym
bin=$tmp/certsym
printf 'i = 0;\nwhile i >= 0 do i = i + 1 od\n' >"$tmp/spin.imp"
printf 'i = 0;\nwhile i < n do\n  j = 0;\n  while j < m do\n    j = j + 1\n  od;\n  i = i + 1\nod;\nassert i >= 0\n' >"$tmp/nested.imp"
mkdir "$tmp/tests"
printf '{"certsym_test": 1, "program": "%s", "program_sha256": "", "input": {}, "expected": {"outcome": "normal", "steps": 3}, "path_condition": "true"}\n' \
  "$tmp/spin.imp" >"$tmp/tests/test000001.json"

now() { date +%s%N; }

# one MODE DELAY ARGS...: one run; prints the latency in ms and the exit status.
one() {
  local mode=$1 delay=$2
  shift 2
  local start sent end code=0
  if [ "$mode" = sigint ]; then
    "$bin" "$@" >/dev/null 2>&1 &
    local pid=$!
    sleep "$delay"
    sent=$(now)
    kill -INT "$pid"
    wait "$pid" || code=$?
    end=$(now)
  else
    start=$(now)
    "$bin" "$@" --timeout "${delay}s" >/dev/null 2>&1 || code=$?
    end=$(now)
    sent=$((start + delay * 1000000000))
  fi
  echo "$(((end - sent) / 1000000)) $code"
}

# series NAME MODE DELAY ARGS...: TRIES runs, one line of the table.
series() {
  local name=$1 mode=$2 delay=$3
  shift 3
  local out
  out=$(for _ in $(seq "$tries"); do one "$mode" "$delay" "$@"; done)
  echo "$out" | sort -n | awk -v name="$name" -v mode="$mode" -v delay="$delay" '
    { ms[NR] = $1; codes[$2]++ }
    END {
      med = (NR % 2) ? ms[(NR + 1) / 2] : (ms[NR / 2] + ms[NR / 2 + 1]) / 2
      c = ""; for (k in codes) c = c (c == "" ? "" : ",") k "x" codes[k]
      printf "| %-8s | %-8s at %ss | %6.0f | %6.0f | %s |\n", name, mode, delay, med, ms[NR], c
    }'
}

echo "| command  | stop            | median ms | worst ms | exit (status x count) |"
echo "|----------|-----------------|-----------|----------|-----------------------|"
hi=2000000000
for mode in sigint timeout; do
  series run "$mode" 1 run "$tmp/spin.imp" --max-states 0 --quiet
  series exec "$mode" 1 exec "$tmp/spin.imp" --max-steps $hi
  series replay "$mode" 1 replay "$tmp/tests" --max-steps $hi
  series concolic "$mode" 1 concolic "$tmp/spin.imp" --input "" --max-steps $hi
  series verify "$mode" 1 verify "$tmp/nested.imp" --loop-bound 1000 --quiet
  series verify "$mode" 3 verify "$tmp/nested.imp" --loop-bound 1000 --quiet
done
