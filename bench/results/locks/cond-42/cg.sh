#!/bin/bash
# callgrind (valgrind 3.19: the threads run one at a time) of the cond
# shape, main's pool (wait morphing) against this branch's, 64 tasks on
# 2 workers, 2,000 items per producer (64,000 items), for each queue
# size and variant; then the calls per item (../cond-rw-41/cgcalls.py).
set -eu
Q=${Q:-/tmp/c42}; D=$(cd "$(dirname "$0")" && pwd); cd $Q/bench
for u in 1 2 4 16 64; do for v in ces ces-default dispatch; do
  case $u$v in 2dispatch|4dispatch|64dispatch) continue ;; esac
  for b in main new; do
    valgrind --tool=callgrind --callgrind-out-file=cg.$b.$v.u$u \
      ./locks_cacs-$b -w 2 -t 64 -k cond -u $u -n 2000 -v $v | grep -q ok=1
    python3 $D/../cond-rw-41/cgcalls.py cg.$b.$v.u$u
  done
done; done
