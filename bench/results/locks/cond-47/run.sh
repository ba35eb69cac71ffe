#!/bin/bash
# cond-47's runs, from this worktree: main's library (base) against HEAD's
# (new), each in a default pool (ces-default) and a migrating one (ces), Go
# (and for the cond, Boost.Fiber) beside from PEERS (default main's build).
# The binaries: cond-44's build.sh (Q=/tmp/l47, ~3 min) unless Q has them.
# REPS interleaved rounds (default 5); OUT a prefix under this directory
# (default "loaded"): OUT-cond/, OUT-chan/, OUT-mutex/. BUSY=1: the same
# with two busy loops pinned one on each CPU (oversubscribed), killed after
# by their ids. ~6 min at REPS=5. D: the folder of OUT (default cond-47's;
# cond-48 runs it with its own).
set -eu
W=$(cd "$(dirname "$0")/../../../.." && pwd); D=${D:-$W/bench/results/locks/cond-47}
Q=${Q:-/tmp/l47}; PEERS=${PEERS:-/work/main/build}; R=${REPS:-5}
O=${OUT:-loaded}
[ -x $Q/bench/locks_cacs-new ] || Q=$Q bash $W/bench/results/locks/cond-44/build.sh
X=(--extra "cacs CES, main=$Q/bench/locks_cacs-base:ces"
   --extra "cacs CES, new=$Q/bench/locks_cacs-new:ces"
   --extra "cacs CES, main, default pool=$Q/bench/locks_cacs-base:ces-default"
   --extra "cacs CES, new, default pool=$Q/bench/locks_cacs-new:ces-default")
B=()
if [ "${BUSY:-0}" = 1 ]; then
  taskset -c 0 timeout 1200 sh -c 'while :; do :; done' & B+=($!)
  taskset -c 1 timeout 1200 sh -c 'while :; do :; done' & B+=($!)
  # The loops, then the timeouts that started them, by their ids.
  trap 'pkill -P "$(IFS=,; echo "${B[*]}")" 2>/dev/null; kill ${B[*]} 2>/dev/null || true' EXIT
  sleep 1
fi
cat /proc/loadavg
cd $W
# 1. The cond shape (cond-43) at 1 and 16 slots.
taskset -c 0,1 python3 bench/locks/run.py --shape counter --object cond \
  --arg 1,16 --cs 0 --iters 5000 --build $PEERS --reps $R \
  --impls locks_go,locks_fiber "${X[@]}" --out $D/$O-cond
# 2. The channel at capacity 0 and 1.
taskset -c 0,1 python3 bench/locks/run.py --shape counter --object chan \
  --arg 0,1 --cs 0 --iters 5000 --build $PEERS --reps $R \
  --impls locks_go "${X[@]}" --out $D/$O-chan
# 3. The guard: the mutex counter shape at 0 and 1000 ns.
taskset -c 0,1 python3 bench/locks/run.py --shape counter --cs 0,1000 \
  --iters 20000 --build $PEERS --reps $R --impls locks_go "${X[@]}" \
  --out $D/$O-mutex
cat /proc/loadavg
