#!/bin/bash
# Callgrind of the cond shape (valgrind runs one thread at a time: work,
# not parallelism), 64 tasks on 2 workers, 64,000 items, for the binaries
# of build.sh (Q=/tmp/l44): instructions per item; then, with strace -f
# -c, futex calls per item of a real (parallel) run.
set -u; Q=${Q:-/tmp/l44}
cd $Q
for u in ${SLOTS:-1 2 16}; do for v in ${VARIANTS:-ces ces-default}; do for b in ${BINS:-base new}; do
  f=cg.$b.$v.u$u
  valgrind --tool=callgrind --callgrind-out-file=$f ./bench/locks_cacs-$b -w 2 -t 64 -k cond -u $u -n 2000 -v $v >/dev/null 2>&1
  tot=$(callgrind_annotate $f 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",","",$1); print $1}')
  printf '%-24s Ir/item %6.0f' $f $(python3 -c "print($tot/64000)")
  n=$(strace -f -c -e trace=futex -o $Q/st.$f ./bench/locks_cacs-$b -w 2 -t 64 -k cond -u $u -n 2000 -v $v 2>/dev/null >/dev/null; awk '/futex/ {print $4}' $Q/st.$f)
  echo "  futex calls/item $(python3 -c "print(round(${n:-0}/64000,4))")"
done; done; done
