#!/usr/bin/env bash
# The refinement layer (make check-refinement): replays the engine against certsym-ref, the
# reference extracted from the Coq development, then runs the mutation check.
#
#   bash refinement/run.sh                  # default run: the corpus and N=150 random programs
#   SEED=1234 N=500 bash refinement/run.sh  # reproduce a seed / a longer soak
#   SEED=<seed of a failing program> N=1    # just that random program (and the corpus)
#   GEN=6,3,4,3 N=300 bash refinement/run.sh # bigger programs: statements per block, nesting,
#                                            # expression depth, loops (default 4,2,3,2)
#   SHARD=1/4 SEED=1234 N=100000 bash refinement/run.sh  # shard 1 of 4 of a soak (deploy/README.md)
#   REFINEMENT_UNIT_DONE=1 bash refinement/run.sh  # skip the unit checks (make check runs them
#                                                  # among its Go tests)
#
# Random program i of a run has generator seed SEED+i; failures print that seed. With SHARD=I/N
# the run checks the corpus programs and random programs k with k mod N = I (the unit and
# mutation checks, the same for every shard, run in shard 0 only); SEED is then required, the
# same for all shards. The summary is also written as JSON to SUMMARY (default
# refinement/summary.json); go run ./refinement/merge FILE... combines the shards' summaries.
set -uo pipefail
cd "$(dirname "$0")/.."

SEED=${SEED:-}
N=${N:-}
SHARD=${SHARD:-}
SUMMARY=${SUMMARY:-refinement/summary.json}
if [ -n "$SHARD" ] && [ -z "$SEED" ]; then echo "refinement: SHARD=$SHARD needs SEED, the same for every shard"; exit 2; fi
[ -n "$SEED" ] || SEED=$(( $(date +%s) % 1000000000 ))
[ -n "$N" ] || N=150
REF=${CERTSYM_REF:-$PWD/proofs/ref/_build/certsym-ref}
export CERTSYM_REF=$REF
if [ ! -x "$REF" ]; then
  echo "refinement: $REF missing, building it (make -C proofs/coq check)"
  make -C proofs/coq check || { echo "refinement: cannot build certsym-ref"; exit 1; }
fi

start=$(date +%s)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "refinement: seed=$SEED random_programs=$N (reproduce: make check-refinement SEED=$SEED N=$N)"

echo "refinement: [1/3] step replay, ghost checks, whole-run oracles"
REFINEMENT_FULL=1 REFINEMENT_SEED=$SEED REFINEMENT_N=$N REFINEMENT_GEN=${GEN:-} \
  REFINEMENT_SHARD=$SHARD REFINEMENT_SUMMARY="$tmp/normal.json" \
  go test -count=1 -timeout 120m -run '^TestRefinement$' -v ./refinement/ 2>&1 | tee "$tmp/normal.txt"
normal=${PIPESTATUS[0]}

unit=0 mutation=0
touch "$tmp/unit.txt" "$tmp/mutation.txt"
if [ -z "$SHARD" ] || [ "${SHARD%%/*}" = 0 ]; then
if [ -n "${REFINEMENT_UNIT_DONE:-}" ]; then
echo "refinement: [2/3] unit checks of the layer: run by make check's Go tests already (REFINEMENT_UNIT_DONE)"
else
echo "refinement: [2/3] unit checks of the layer (bounded interpreter not exhaustive, generator, protocol and its codec, prover, status table, mutation overlay)"
go test -count=1 -timeout 20m -run '^Test(Bounded|Generator|Protocol|Prover)' -v ./refinement/ 2>&1 | tee "$tmp/unit.txt"
unit=${PIPESTATUS[0]}
go test -count=1 -timeout 20m -v ./refinement/refclient/ 2>&1 | grep -v '^=== ' | tee -a "$tmp/unit.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || unit=1
# the status table against verify's and the generator's verify snippets (verifycheck), the
# overlay of the mutation run's layer tests (mutation)
go test -count=1 -timeout 20m -v ./refinement/verifycheck/ ./refinement/mutation/ 2>&1 | grep -v '^=== ' | tee -a "$tmp/unit.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || unit=1
fi

echo "refinement: [3/3] mutation check (build tag faults)"
# TestMutation runs the layer under each fault of fault.Refinement(); the packages' own fault
# tests (merging, prove, inference, stealing and its thieves' decisions, verify's invariant
# mode, the broker's acknowledgement) each switch on their faults and require the check meant
# for them to catch them. REFINEMENT_NO_LAYER_MUTATION (make check) leaves TestMutation out, the
# two minutes of the layer's run once per fault: make check-refinement runs it.
skip=()
if [ -n "${REFINEMENT_NO_LAYER_MUTATION:-}" ]; then
  echo "refinement: TestMutation left out (REFINEMENT_NO_LAYER_MUTATION; make check-refinement runs it)"
  skip=(-skip '^TestMutation$')
fi
go test -tags faults -count=1 -timeout 60m -run 'Mutation|Fault' "${skip[@]}" -v ./refinement/... ./distrib/ ./prove/infer/ ./engine/steal/ 2>&1 | tee "$tmp/mutation.txt"
mutation=${PIPESTATUS[0]}
fi

field() { grep -o "refinement: normal .*" "$tmp/normal.txt" | grep -o " $1=[0-9]*" | head -1 | cut -d= -f2; }
faults=$(grep -o "faults detected [0-9]*/[0-9]*" "$tmp/mutation.txt" | tail -1 | cut -d' ' -f3)
echo
echo "refinement: ================= summary ================="
echo "refinement: seed                 $SEED (random programs $N; reproduce: make check-refinement SEED=$SEED N=$N)"
echo "refinement: programs             $(field programs)"
echo "refinement: states replayed      $(field states_replayed) (successors compared $(field successors_compared), concrete steps $(field concrete_steps))"
echo "refinement: ghost checks         $(field ghost_checks) (precision replays $(field precision_replays), exhaustiveness runs $(field exhaustive_runs), bugs replayed $(field bugs_replayed))"
echo "refinement: verify statuses      $(field verify_claims) claims checked against $(field verify_runs) concrete runs ($(field verify_cut_runs) cut off by the loop limit and followed beyond it)"
echo "refinement: unpruned stream      $(field stream_states) states compared with the reference's extracted run stream"
echo "refinement: crosscheck           solver-free decisions by rule (fired / asked to the layer's Z3):"
grep -o "refinement:   crosscheck rule .*" "$tmp/normal.txt" | sed 's/^refinement:   /refinement:     /'
echo "refinement: mismatches           $(field mismatches)"
if [ -n "${REFINEMENT_NO_LAYER_MUTATION:-}" ]; then
  echo "refinement: faults detected      not counted: TestMutation left out (make check-refinement runs it); the packages' fault tests ran"
else
  echo "refinement: faults detected      ${faults:-?} (mutation check)"
fi
echo "refinement: wall time            $(( $(date +%s) - start ))s"
if grep -q "MISMATCH \[" "$tmp/normal.txt"; then
  echo "refinement: first mismatches (reproduce a random program alone: make check-refinement SEED=<its generator seed> N=1):"
  grep -o "MISMATCH \[.*" "$tmp/normal.txt" | head -10 | sed 's/^/refinement:   /'
fi
status=OK
if [ "$normal" -ne 0 ] || [ "$unit" -ne 0 ] || [ "$mutation" -ne 0 ]; then status=FAILED; fi
{ printf '{"seed": %s, "random_programs": %s, "shard": "%s", "status": "%s", "normal_status": %s, "unit_status": %s, "mutation_status": %s, "faults_detected": "%s", "wall_seconds": %s, "normal": ' \
    "$SEED" "$N" "${SHARD:-0/1}" "$status" "$normal" "$unit" "$mutation" "${faults:-}" "$(( $(date +%s) - start ))"
  if [ -s "$tmp/normal.json" ]; then cat "$tmp/normal.json"; else echo null; fi
  echo '}'; } > "$SUMMARY"
echo "refinement: JSON summary         $SUMMARY"
if [ "$status" = FAILED ]; then
  echo "refinement: FAILED (normal run status $normal, unit checks $unit, mutation check $mutation)"
  exit 1
fi
echo "refinement: OK"
