#!/bin/bash
# Session 40's rwlock runs (after /work/q40/bench.done): main's libcacs and
# the branch's two steps -- v1, phase-fair with the in-place rule (6293c3b),
# and v2, v1 with writers keeping the turn -- in a default pool and a
# migrating one, beside Go sync.RWMutex and pthread, 10 % writers,
# critical sections 0 ns to 10 us; run.py interleaves a point's
# implementations round-robin (3 rounds), taskset -c 0,1. Then the channel
# shape (main's libcacs: the branch does not change the channel), capacity
# 0 and 64, beside a Go channel. load.txt: the load average before and
# after each. Binaries: build-branch.sh (Q=/tmp/l40).
set -u
Q=${Q:-/tmp/l40}; W=$(cd "$(dirname "$0")/../../../.." && pwd)
OUT=${OUT:-$W/bench/results/locks/rw-40}
B=$Q/bin/bench
cd $W
up() { { date -u; cat /proc/loadavg; } >> $OUT/load.txt; }
: > $OUT/load.txt
up
python3 bench/locks/run.py --shape counter --object rw --arg 10 \
  --cs 0,50,100,250,500,1000,2500,5000,10000 --build $Q/bin \
  --impls locks_go,locks_pthread --reps ${REPS:-3} \
  --extra "cacs CES, main, default pool=$B/locks_cacs-main:ces-default" \
  --extra "cacs CES, v1, default pool=$B/locks_cacs-v1:ces-default" \
  --extra "cacs CES, v2, default pool=$B/locks_cacs-v2:ces-default" \
  --extra "cacs CES, main=$B/locks_cacs-main:ces" \
  --extra "cacs CES, v1=$B/locks_cacs-v1:ces" \
  --extra "cacs CES, v2=$B/locks_cacs-v2:ces" \
  --out $OUT/rw > $Q/rw40.log 2>&1
up
[ -n "${NO_CHAN:-}" ] || python3 bench/locks/run.py --shape counter --object chan \
  --arg 0,64 --cs 0 --build $Q/bin --impls locks_go --reps ${REPS:-3} \
  --extra "cacs CES, main, default pool=$B/locks_cacs-main:ces-default" \
  --extra "cacs CES, main=$B/locks_cacs-main:ces" \
  --out $OUT/chan > $Q/chan40.log 2>&1
up
echo done >> $OUT/load.txt
