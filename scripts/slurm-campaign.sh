#!/usr/bin/env bash
# A campaign on a Slurm cluster over MPI: rank 0 the master (the campaign's
# directory, which must be on a file system the first node can write), one worker
# rank per node with all its cores and most of its memory as the table.
#
# Build once on the cluster (the MPI library of the cluster, or Debian's through
# scripts/install-mpi.sh):   cargo build --release --features mpi
# Submit from the repository's root:
#   BOARD=6x6 sbatch --nodes=8 --time=12:00:00 scripts/slurm-campaign.sh
# Watch it from anywhere:    target/release/breakthrough campaign status campaigns/6x6
#
# The run stops cleanly MARGIN seconds before the wall-time limit (exit 3, the
# checkpoint written) and, unless RESUBMIT=0, submits this script again to continue;
# it stops resubmitting when the campaign is solved, a run fails or is stopped
# otherwise (scancel --signal=TERM: a clean stop, exit 3) (the next job
# gets the same number of nodes, time limit, memory, job name, partition, account,
# QOS and reservation; give any other sbatch option as its SBATCH_* environment
# variable, e.g. SBATCH_OUTPUT=... or SBATCH_CONSTRAINT=..., which the next job
# inherits). The time limit must exceed MARGIN by at least a minute. A job killed
# by the scheduler, or a node that dies, loses only the jobs in flight and the
# master's work since its last checkpoint: submit again to continue.
#
#SBATCH --job-name=breakthrough
#SBATCH --nodes=4
#SBATCH --ntasks-per-node=1
#SBATCH --exclusive
#SBATCH --time=12:00:00
#SBATCH --output=%x-%j.log
set -euo pipefail

BOARD=${BOARD:?set BOARD, e.g. BOARD=6x6 sbatch scripts/slurm-campaign.sh}
DIR=${DIR:-campaigns/$BOARD}
MARGIN=${MARGIN:-600}                  # seconds kept for the last checkpoint
CHECKPOINT_EVERY=${CHECKPOINT_EVERY:-300}
RESUBMIT=${RESUBMIT:-1}
MPI_PLUGIN=${MPI_PLUGIN:-pmix}          # srun --mpi=...: how the ranks find each other
bin=${BIN:-target/release/breakthrough}

# Cores and memory of one node; the table takes 3/4 of the memory Slurm gives
# (--mem, else --mem-per-cpu times the cores, else what the node has available).
threads=${THREADS:-${SLURM_CPUS_ON_NODE:-$(nproc)}}
if [[ -n ${SLURM_MEM_PER_NODE:-} ]]; then
    node_mb=$SLURM_MEM_PER_NODE
elif [[ -n ${SLURM_MEM_PER_CPU:-} ]]; then
    node_mb=$((SLURM_MEM_PER_CPU * ${SLURM_CPUS_ON_NODE:-1}))
else
    node_mb=$(awk '/MemAvailable/ {print int($2 / 1024)}' /proc/meminfo)
fi
tt_mb=${TT_MB:-$((node_mb * 3 / 4))}

# The wall time left, from Slurm, less the margin (none without a limit: squeue
# prints NONE then). The standard time format, whatever the user's SLURM_TIME_FORMAT.
end=$(SLURM_TIME_FORMAT=standard squeue -h -j "$SLURM_JOB_ID" -o %e)
time_limit=()
left=unlimited
if [[ $end =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T ]]; then
    left=$(($(date -d "$end" +%s) - $(date +%s) - MARGIN))
    if ((left < 60)); then
        echo "less than a minute left before the wall-time limit ($end) less MARGIN=$MARGIN s: nothing run; give a longer --time or a smaller MARGIN" >&2
        exit 1
    fi
    time_limit=(--time-limit "$left")
fi

echo "$(date -Is) $BOARD in $DIR: $SLURM_NNODES nodes, $threads threads and $tt_mb MiB per worker, $left s" >&2
# One worker per node, plus the master: cyclic placement puts rank 0 (the master:
# one core, about 300 bytes per DAG node) and the last rank on the first node.
# (The job's SLURM_NTASKS_PER_NODE=1 would make srun warn that it ignores it.)
set +e
env -u SLURM_NTASKS_PER_NODE srun --mpi="$MPI_PLUGIN" --ntasks=$((SLURM_NNODES + 1)) \
    --distribution=cyclic --overcommit --cpu-bind=none --kill-on-bad-exit=1 \
    "$bin" campaign run "$DIR" "$BOARD" --threads "$threads" --tt-mb "$tt_mb" \
    ${time_limit[@]+"${time_limit[@]}"} --checkpoint-every "$CHECKPOINT_EVERY" --quiet
code=$?
set -e
"$bin" campaign status "$DIR" >&2 || true
case $code in
0) echo "$(date -Is) solved: $DIR/result.json; check it with $bin verify $DIR" >&2 ;;
3) # Stopped cleanly: for the wall time (go on), or by a signal such as
   # `scancel --signal=TERM` (the user's stop: no next job).
   last_end=$("$bin" campaign status "$DIR" 2>/dev/null | grep '^run ' | tail -n 1 | sed 's/.*: //' || true)
   if [[ $last_end != "time limit" ]]; then
       echo "$(date -Is) stopped ($last_end), not for the wall time: no next job; submit again to continue" >&2
   elif [[ $RESUBMIT != 0 ]]; then
       echo "$(date -Is) stopped for the wall time: submitting the next run" >&2
       # The job as Slurm has it: its time limit, memory (--mem, --mem-per-cpu,
       # --mem=0) and where it ran, and this script's path (Slurm runs a copy).
       info=" $(scontrol show job -o "$SLURM_JOB_ID")"
       field() { grep -o " $1=[^ ]*" <<<"$info" | head -n 1 | cut -d= -f2- || true; }
       again=(--nodes="$SLURM_NNODES" --export=ALL --job-name="$SLURM_JOB_NAME")
       for f in TimeLimit:time MinMemoryNode:mem MinMemoryCPU:mem-per-cpu Partition:partition \
           Account:account QOS:qos Reservation:reservation; do
           value=$(field "${f%%:*}")
           [[ -n $value && $value != "(null)" ]] && again+=("--${f#*:}=$value")
       done
       script=$(field Command)
       [[ -f $script ]] || script=$SLURM_SUBMIT_DIR/scripts/slurm-campaign.sh
       (cd "$SLURM_SUBMIT_DIR" && unset SLURM_MEM_PER_NODE SLURM_MEM_PER_CPU && sbatch "${again[@]}" "$script")
   else
       echo "$(date -Is) stopped for the wall time; RESUBMIT=0: submit again to continue" >&2
   fi ;;
*) echo "$(date -Is) the run failed (exit $code): see the log, then submit again to continue" >&2 ;;
esac
exit "$code"
