#!/bin/bash
# callgrind of the cond shape, default pool (valgrind runs one thread at a
# time: work, not parallelism): locks_cacs built by clang-19 -O2 -g against
# libcacs.a archives built by mk.sh: base (8169eb0), placement with
# round-robin ties (bb5cad4: "new"), the same + runnext.patch ("rn"), and
# the branch head (1297e24: "fib"). cgcalls.py: ../cond-rw-41.
set -eu; D=$(cd "$(dirname "$0")" && pwd)
cd /tmp/h43
for u in 1 2 16; do for b in base new rn fib; do
  valgrind --tool=callgrind --callgrind-out-file=cg.$b.u$u ./locks-$b -w 2 -t 64 -k cond -u $u -n 2000 -v ces-default 2>&1 | grep -o "ok=1\|homes.*"
  python3 $D/../cond-rw-41/cgcalls.py cg.$b.u$u
done; done
