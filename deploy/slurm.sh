#!/bin/bash
# A distributed certsym run as one Slurm job: srun starts a certsym worker on each task of the
# allocation, and the batch script runs the coordinator, which prints the run's report.
#
#   sbatch --ntasks=8 deploy/slurm.sh nats://BROKER:4222 PROGRAM.imp [certsym run options...]
#
# The broker is a NATS server with JetStream (nats-server -js, Debian's nats-server) that every
# node reaches; start it beside the cluster (a service node), or give BROKER=start to start one on
# the batch node for this job (nats-server must be installed there; the URL then names that node).
# The report goes to the job's output file; the exit status is certsym run's (0 safe, 1 bug, 3 no
# verdict). The workers end when the coordinator is done. The refinement soak runs as before with
# SOAK=1 (deploy/README.md).
#SBATCH --job-name=certsym-distributed
#SBATCH --ntasks=4
#SBATCH --cpus-per-task=1
#SBATCH --mem-per-cpu=5G
#SBATCH --time=02:00:00
#SBATCH --output=certsym-%j.log
set -u
CERTSYM=${CERTSYM:-certsym}

if [ "${SOAK:-}" = 1 ]; then
  # The refinement soak, as a job array: random program k belongs to shard k mod N.
  RESULTS=${1:?usage: SOAK=1 sbatch --array=0-3 $0 RESULTS_DIR}
  mkdir -p "$RESULTS"
  make check-refinement SHARD="${SLURM_ARRAY_TASK_ID:?run it as a job array}/${SLURM_ARRAY_TASK_COUNT}" \
    SEED="${SEED:?set SEED, the same for every task}" N="${SOAK_N:-1000}" SUMMARY="$RESULTS/refinement-$SLURM_ARRAY_TASK_ID.json"
  exit $?
fi

URL=${1:?usage: sbatch --ntasks=N $0 nats://BROKER:4222 PROGRAM.imp [options]}
PROGRAM=${2:?usage: sbatch --ntasks=N $0 nats://BROKER:4222 PROGRAM.imp [options]}
shift 2
if [ -z "${SLURM_JOB_ID:-}" ]; then
  echo "slurm.sh: run it with sbatch: sbatch --ntasks=4 $0 $URL $PROGRAM" >&2
  exit 2
fi

broker=""
if [ "${BROKER:-}" = start ]; then
  store=$(mktemp -d)
  nats-server -js -p "${URL##*:}" -sd "$store" &
  broker=$!
fi

# One worker per task; srun forwards the SIGTERM below to each.
srun --ntasks="${SLURM_NTASKS:-1}" --kill-on-bad-exit=0 "$CERTSYM" worker "$URL" &
workers=$!

"$CERTSYM" run "$PROGRAM" --distributed "$URL" --quiet "$@"
status=$?

kill -TERM "$workers" 2>/dev/null
wait "$workers" 2>/dev/null
if [ -n "$broker" ]; then
  kill "$broker"
  wait "$broker" 2>/dev/null
fi
exit $status
