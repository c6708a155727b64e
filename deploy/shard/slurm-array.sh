#!/bin/bash
# certsym run --shard as a Slurm job array: array task I of N runs shard I/N of one program.
#
#   sbatch --array=0-3 deploy/slurm.sh PROGRAM.imp RESULTS_DIR [certsym run options...]
#   # when all tasks are done (or: sbatch --dependency=afterany:JOBID ...):
#   certsym merge RESULTS_DIR/shard-*.json
#
# N is the size of the array (SLURM_ARRAY_TASK_COUNT; the array must be 0..N-1). The refinement
# soak runs the same way with SOAK=1 (deploy/README.md): make check-refinement SHARD=I/N.
#SBATCH --job-name=certsym-shard
#SBATCH --cpus-per-task=1
#SBATCH --mem=5G
#SBATCH --time=02:00:00
#SBATCH --output=certsym-shard-%A_%a.log
set -u

if [ -z "${SLURM_ARRAY_TASK_ID:-}" ] || [ -z "${SLURM_ARRAY_TASK_COUNT:-}" ]; then
  echo "slurm.sh: run it as a job array: sbatch --array=0-3 $0 PROGRAM.imp RESULTS_DIR" >&2
  exit 2
fi
I=$SLURM_ARRAY_TASK_ID
N=$SLURM_ARRAY_TASK_COUNT
CERTSYM=${CERTSYM:-certsym}

if [ "${SOAK:-}" = 1 ]; then
  # The refinement soak: random program k belongs to shard k mod N; the summary is JSON.
  RESULTS=${1:?usage: SOAK=1 sbatch --array=0-3 $0 RESULTS_DIR}
  mkdir -p "$RESULTS"
  make check-refinement SHARD="$I/$N" SEED="${SEED:?set SEED, the same for every task}" N="${SOAK_N:-1000}" \
    SUMMARY="$RESULTS/refinement-$I.json"
  exit $?
fi

PROGRAM=${1:?usage: sbatch --array=0-3 $0 PROGRAM.imp RESULTS_DIR [options]}
RESULTS=${2:?usage: sbatch --array=0-3 $0 PROGRAM.imp RESULTS_DIR [options]}
shift 2
mkdir -p "$RESULTS"
"$CERTSYM" run "$PROGRAM" --shard "$I/$N" --json --quiet "$@" > "$RESULTS/shard-$I.json"
status=$?
# 0 safe, 1 bug, 3 no verdict: the shard's report is written; 2 and 4 are errors.
case $status in
  0 | 1 | 3) exit 0 ;;
  *) echo "slurm.sh: certsym run exited $status" >&2; exit "$status" ;;
esac
