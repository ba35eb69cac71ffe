#!/bin/bash
# The quiet slot: rw (7 runs), semaphore and mutex (5 runs), main vs branch
# libcacs, default pool and migrating, beside Go and pthread; run.py
# interleaves a point's implementations round-robin, taskset -c 0,1.
set -u
Q=/work/q39/locks39; W=/work/wt/locks39; OUT=${OUT:-$W/bench/results/locks/rw-39}
cd $W
up() { { date -u; cat /proc/loadavg; } >> $Q/quiet-load.txt; }
: > $Q/quiet-load.txt
up
run() {
  local obj=$1 arg=$2 cs=$3 reps=$4
  local a=(--shape counter --cs $cs --build $Q/bin --impls locks_go,locks_pthread --reps $reps
    --extra "cacs CES, main, default pool=$Q/bin/locks_cacs-main:ces-default"
    --extra "cacs CES, locks39, default pool=$Q/bin/locks_cacs-branch:ces-default"
    --extra "cacs CES, main=$Q/bin/locks_cacs-main:ces"
    --extra "cacs CES, locks39=$Q/bin/locks_cacs-branch:ces"
    --out $OUT/$obj)
  [ $obj = mutex ] || a+=(--object $obj --arg $arg)
  python3 bench/locks/run.py "${a[@]}" > $Q/quiet-$obj.log 2>&1
  up
}
run rw 10 0,1000 ${REPS_RW:-7}
run sem 1 0,1000 ${REPS:-5}
run mutex - 0 ${REPS:-5}
echo done >> $Q/quiet-load.txt
touch /work/q39/quiet.done
