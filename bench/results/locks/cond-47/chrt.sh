#!/bin/bash
# cond-47 under `chrt -f 1 taskset -c 0,1` (SCHED_FIFO: no CFS thread
# preempts the workers, so their CPUs count as their own, as on an idle
# machine; cond-44 and cond-46 found it reproduces quiet figures, except
# that futex wake-ups of a SCHED_FIFO pair are slower): main's library
# (base) against HEAD's (new), REPS interleaved rounds (default 3), the
# binaries of run.sh (Q; BINS: which, default "base new"). Prints one line
# per run: library, arguments, M/s.
set -eu
Q=${Q:-/tmp/l47}; R=${REPS:-3}; V=${BINS:-base new}
S=("-k cond -u 1 -n 5000 -v ces-default" "-k cond -u 16 -n 5000 -v ces-default"
   "-k chan -u 0 -n 5000 -v ces-default" "-k chan -u 1 -n 5000 -v ces-default"
   "-k counter -n 20000 -v ces-default" "-k counter -c 1000 -n 20000 -v ces-default"
   "-k cond -u 1 -n 5000 -v ces" "-k chan -u 1 -n 5000 -v ces")
cat /proc/loadavg
for r in $(seq $R); do
  for s in "${S[@]}"; do
    for v in $V; do
      m=$(chrt -f 1 taskset -c 0,1 timeout 60 $Q/bench/locks_cacs-$v -w 2 \
            -t 64 -c 0 -d 1000 -p 0.95 $s | grep -o 'mops=[0-9.]*' || echo FAILED)
      echo "$v $s $m"
    done
  done
done
cat /proc/loadavg
