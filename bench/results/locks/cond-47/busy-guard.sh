#!/bin/bash
# The oversubscribed guard again, more rounds: two busy loops pinned one on
# each CPU (killed after by their ids), then REPS (default 9) interleaved
# rounds of main's library (base) and HEAD's (new) in the shapes given as
# arguments, one "-k ... -v ..." string each (default: the mutex counter at
# 0 ns in a default pool). The binaries of run.sh (Q). One line per run.
set -eu
Q=${Q:-/tmp/l47}; R=${REPS:-9}
[ $# -gt 0 ] || set -- "-k counter -n 20000 -v ces-default"
taskset -c 0 timeout 600 sh -c 'while :; do :; done' & B1=$!
taskset -c 1 timeout 600 sh -c 'while :; do :; done' & B2=$!
# The loops, then the timeouts that started them, by their ids.
trap 'pkill -P $B1,$B2 2>/dev/null; kill $B1 $B2 2>/dev/null || true' EXIT
sleep 1
cat /proc/loadavg
for r in $(seq $R); do
  for s in "$@"; do
    for v in base new; do
      m=$(taskset -c 0,1 timeout 60 $Q/bench/locks_cacs-$v -w 2 -t 64 -c 0 \
            -d 1000 -p 0.95 $s 2>/dev/null | grep -o 'mops=[0-9.]*' || echo FAILED)
      echo "$v $s $m"
    done
  done
done
cat /proc/loadavg
