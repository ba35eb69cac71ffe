#!/bin/sh
# stats.sh: slow-path entries per lock pair, main against fast-49, in the
# counter shape (64 tasks, 2 workers, default pool, -n 20000: 1.28 M pairs),
# unpinned (taskset -c 0,1) and with the workers pinned apart (mutex-48's
# pin2.py, PIN2_ALL=1: printing the whole output). IM, IF: locks_cacs linked
# with pool_sync.c instrumented by zero-48's stats-mk.py (its zs.h.txt as
# /tmp/zero48/stats/zs.h), main's and this branch's; never committed.
D=$(dirname "$0")
IM=${IM:-/tmp/fast49/imain/locks_cacs}; IF=${IF:-/tmp/fast49/ifast/locks_cacs}
P=${P:-0.912888}
for r in 1 2 3; do for c in 0 100; do for b in IM IF; do
  eval x=\$$b
  A="-w 2 -t 64 -c $c -k counter -n 20000 -p $P -v ces-default"
  for mode in unpinned apart; do
    if [ $mode = apart ]; then
      out=$(PIN2_ALL=1 taskset -c 0,1 python3 "$D/../mutex-48/pin2.py" $x $A 2>&1)
    else
      out=$(taskset -c 0,1 $x $A 2>&1)
    fi
    echo "$b c$c $mode r$r load $(cut -d' ' -f1 /proc/loadavg)" \
      $(echo "$out" | grep -E '^ZS (lock_slow|unlock_slow|park|wake_compete|starve_set|handover) ' | awk '{printf "%s=%s ", $2, $3}') \
      $(echo "$out" | grep -oE 'ops=[0-9]+ mops=[0-9.]+')
  done
done; done; done
