#!/bin/bash
# For the lead's quiet window (load < 1.5), from this worktree: runnext
# (HEAD) against its base, Go and Boost.Fiber beside (their binaries from PEERS,
# default main's build). Builds the binaries first (build.sh, ~3 min) unless
# Q has them. Writes quiet-chain.txt and quiet-{cond,mutex,chan}/ here.
set -eu
W=$(cd "$(dirname "$0")/../../../.." && pwd); D=$W/bench/results/locks/cond-44
Q=${Q:-/tmp/l44q}; PEERS=${PEERS:-/work/main/build}; R=${REPS:-7}
[ -x $Q/bench/runnext-new ] || Q=$Q bash $D/build.sh
X=(--extra "cacs CES, base=$Q/bench/locks_cacs-base:ces"
   --extra "cacs CES, runnext=$Q/bench/locks_cacs-new:ces")
cat /proc/loadavg
# 1. The chain of pool-runnext.c: where the woken run (base should fail).
for r in $(seq 1 $R); do for b in base new; do
  echo "$b: $(taskset -c 0,1 $Q/bench/runnext-$b cond)"
done; done | tee $D/quiet-chain.txt
cd $W
# 2. cond-43's shape at 1, 2 and 16 slots.
taskset -c 0,1 python3 bench/locks/run.py --shape counter --object cond \
  --arg 1,2,16 --cs 0 --iters 5000 --build $PEERS --reps $R \
  --impls locks_go,locks_fiber "${X[@]}" --out $D/quiet-cond
# 3. What else the rule touches: the mutex counter shape, the channel.
taskset -c 0,1 python3 bench/locks/run.py --shape counter --cs 0,1000 \
  --build $PEERS --reps $R --impls locks_go "${X[@]}" --out $D/quiet-mutex
taskset -c 0,1 python3 bench/locks/run.py --shape counter --object chan \
  --arg 0,1 --cs 0 --iters 5000 --build $PEERS --reps $R \
  --impls locks_go "${X[@]}" --out $D/quiet-chan
cat /proc/loadavg
