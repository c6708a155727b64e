#!/usr/bin/env bash
# make fuzz: runs each fuzz target of cmd/certsym (Go native fuzzing) for FUZZTIME, one after the
# other, under a memory limit, and appends one line per target to the record
# (cmd/certsym/testdata/fuzz/record.tsv): the date (UTC) it ended, the target, the time asked, the
# seconds and executions go test reported, the rate, the workers, the address-space limit, the
# result and the machine (cores, processor, load average at the start).
#
#   FUZZTIME     time (or count: 100000x) per target, as go test -fuzztime takes it; default 10m
#   FUZZ         the targets, separated by spaces; default every target of cmd/certsym
#   FUZZ_PARALLEL  fuzzing workers (go test -parallel); default 1
#   FUZZ_MEM     address space of each process in MiB (ulimit -v); default 8192. A worker that
#                runs Z3 reserves 2 to 3 GiB of address space at rest (Go's heap reservations,
#                the C allocator's arenas, which MALLOC_ARENA_MAX=2 keeps few): under 4096 two
#                workers died after a quarter of an hour on inputs that pass alone. The limit is
#                there for a runaway input, which would otherwise take the machine's memory.
#                GOMEMLIMIT (default 1GiB) makes the Go heap collect early; Z3's memory is outside it
#   FUZZ_MINIMIZE  time (or count) go test may spend minimizing each new input (-fuzzminimizetime);
#                default 5s (go test's 60 s stops the executions of a slow target for a minute
#                at every new input: they are not counted)
#
# A target that fails stops there (go test -fuzz stops at the first failure) and the others go
# on. go test writes the failing input to cmd/certsym/testdata/fuzz/<target>/, where go test
# replays it from then on; the script stages it (git add) so that it is committed with the fix.
# The exit status is 1 when some target failed.
set -u
cd "$(dirname "$0")/.."

GO=${GO:-go}
FUZZTIME=${FUZZTIME:-10m}
FUZZ=${FUZZ:-FuzzPipeline FuzzExec FuzzConcolic FuzzReplay FuzzVerify}
FUZZ_PARALLEL=${FUZZ_PARALLEL:-1}
FUZZ_MEM=${FUZZ_MEM:-8192}
export MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2}
FUZZ_MINIMIZE=${FUZZ_MINIMIZE:-5s}
export GOMEMLIMIT=${GOMEMLIMIT:-1GiB}
PKG=./cmd/certsym
CORPUS=cmd/certsym/testdata/fuzz
RECORD=$CORPUS/record.tsv

machine="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
mkdir -p "$CORPUS"
if [ ! -s "$RECORD" ]; then
	printf 'date\ttarget\tfuzztime\telapsed_s\texecs\texecs_per_s\tparallel\taddress_space_mib\tresult\tmachine\tload_at_start\n' >"$RECORD"
fi

# seconds converts a Go duration as go test prints it (1h2m3.5s, 45s, 0s) to whole seconds.
seconds() {
	awk -v d="$1" 'BEGIN {
		s = 0
		while (match(d, /^[0-9.]+(h|ms|m|s)/)) {
			tok = substr(d, 1, RLENGTH); d = substr(d, RLENGTH + 1)
			n = tok + 0
			if (tok ~ /ms$/) s += n / 1000; else if (tok ~ /h$/) s += 3600 * n; else if (tok ~ /m$/) s += 60 * n; else s += n
		}
		printf "%d", s
	}'
}

failed=0
for target in $FUZZ; do
	before=$(ls "$CORPUS/$target" 2>/dev/null | sort)
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	log=$(mktemp)
	echo "== $target: fuzzing for $FUZZTIME ($FUZZ_PARALLEL worker(s), ${FUZZ_MEM} MiB of address space a process)"
	# -timeout 0: the fuzz time bounds the run; each target fails an input whose command does not
	# end within seconds of its own time bound (cmd/certsym/fuzzcli_test.go, hangLimit).
	(
		ulimit -v $((FUZZ_MEM * 1024))
		"$GO" test -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" -fuzzminimizetime "$FUZZ_MINIMIZE" -parallel "$FUZZ_PARALLEL" -timeout 0 "$PKG"
	) 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	last=$(grep -E 'fuzz: elapsed: .*execs: [0-9]+' "$log" | tail -1)
	execs=$(sed -nE 's/.*execs: ([0-9]+).*/\1/p' <<<"$last")
	elapsed=$(seconds "$(sed -nE 's/.*elapsed: ([0-9hms.]+),.*/\1/p' <<<"$last")")
	execs=${execs:-0}
	elapsed=${elapsed:-0}
	rate=0
	if [ "$elapsed" -gt 0 ]; then rate=$((execs / elapsed)); fi
	after=$(ls "$CORPUS/$target" 2>/dev/null | sort)
	new=$(comm -13 <(echo "$before") <(echo "$after") | grep -v '^$' || true)
	result=ok
	if [ "$rc" -ne 0 ]; then
		failed=1
		if [ -n "$new" ]; then
			result="FAIL $(echo "$new" | sed "s|^|$target/|" | tr '\n' ' ' | sed 's/ $//')"
			for f in $new; do
				echo "certsym fuzz: $target failed: the input is kept as $CORPUS/$target/$f (go test replays it; go test -run '$target/$f' ./cmd/certsym reruns it)"
				git add "$CORPUS/$target/$f" 2>/dev/null && echo "certsym fuzz: staged for commit (git add)"
			done
		elif grep -q 'context deadline exceeded' "$log" && ! grep -q 'now fuzzing' "$log"; then
			result="FUZZTIME ran out before the seed corpus was run (go test exit $rc)"
		else
			result="error (go test exit $rc)"
		fi
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$target" "$FUZZTIME" "$elapsed" "$execs" "$rate" \
		"$FUZZ_PARALLEL" "$FUZZ_MEM" "$result" "$machine" "$load" >>"$RECORD"
	echo "== $target: $execs executions in ${elapsed}s ($rate/s): $result (recorded in $RECORD)"
	rm -f "$log"
done
exit $failed
