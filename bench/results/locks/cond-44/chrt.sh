#!/bin/bash
# The chrt runs of README.md (Q=/tmp/l44: build.sh's binaries; PEERS: a
# build with locks_go and locks_fiber): SCHED_FIFO gives the two workers
# CPUs as idle as a quiet machine's on a loaded one. Each run under 1 s.
# Output: "SHAPE IMPL M-items/s" lines (chrt-*.txt).
set -u; Q=${Q:-/tmp/l44}; B=${PEERS:-/work/main/build}/bench
run() { timeout 20 chrt -f 1 taskset -c 0,1 "$@" 2>/dev/null | tail -1 |
        grep -o 'mops=[0-9.]*' | cut -d= -f2; }
for r in 1 2 3 4 5; do
  for u in 1 2 16; do
    echo "u$u cb $(run $Q/bench/locks_cacs-base -v ces -w 2 -t 64 -k cond -u $u -n 5000)"
    echo "u$u cn $(run $Q/bench/locks_cacs-new -v ces -w 2 -t 64 -k cond -u $u -n 5000)"
    echo "u$u go $(run $B/locks_go -w 2 -t 64 -k cond -u $u -n 5000)"
    echo "u$u fiber $(run $B/locks_fiber -w 2 -t 64 -k cond -u $u -n 5000)"
  done
  for s in "cond -u 16" "cond -u 4" "counter -c 0" "counter -c 1000" \
           "chan -u 0" "chan -u 1"; do
    n=5000; case "$s" in counter*) n=20000 ;; esac
    for b in base new; do
      echo "${s// /_} c${b:0:1} $(run $Q/bench/locks_cacs-$b -v ces -w 2 -t 64 -k $s -n $n)"
    done
  done
done
