#!/bin/sh
# ab.sh: the pool mutex, A (main) against B (fast-49), in bench/locks' counter
# shape: 64 tasks on 2 workers, critical sections 0, 100, 1000 and 10000 ns,
# interleaved (A then B, then B then A), ROUNDS rounds, under taskset -c 0,1;
# the default pool (ces-default) and the migrating one (ces), then the default
# pool with its two workers pinned apart (mutex-48's pin2.py: the state
# where a woken waiter of the other worker keeps M_QUEUED|M_WOKEN set).
# From the tree's root:
#   A=/work/main/build/bench/locks_cacs B=build/bench/locks_cacs \
#     sh bench/results/locks/fast-49/ab.sh > out.txt
# ROUNDS (5), T (ms per run, 500), P (padding rate, default: A's -k calibrate),
# CS (the critical sections), MODES ("free apart") and VARIANTS ("ces-default
# ces"; apart runs only ces-default) override. About 3 minutes; the table (medians and ranges, M pairs/s) at
# the end, from summary.py (a run that fails, e.g. locks_cacs's "no
# spawner on every worker" under load, is listed and left out).
A=${A:-/work/main/build/bench/locks_cacs}
B=${B:-build/bench/locks_cacs}
R=${ROUNDS:-5}
T=${T:-500}
D=$(dirname "$0")
P=${P:-$($A -k calibrate | sed -n 's/^PAD per_ns=//p')}
echo "# A=$A B=$B rounds=$R T=$T pad=$P $(date -u +%FT%TZ)"
run() { # name binary variant cs mode
  args="-w 2 -t 64 -c $4 -k counter -T $T -p $P -v $3"
  if [ "$5" = apart ]; then
    out=$(taskset -c 0,1 python3 "$D/../mutex-48/pin2.py" "$2" $args 2>&1)
  else
    out=$(taskset -c 0,1 "$2" $args 2>&1)
  fi
  echo "$1 $3 $5 c$4 load $(cut -d' ' -f1 /proc/loadavg)" \
    "$(echo "$out" | grep -oE 'mops=[0-9.]+' | head -1 | grep . || echo failed:" $(echo "$out" | tail -1)")"
}
for r in $(seq "$R"); do
  order="A B"
  [ $((r % 2)) -eq 0 ] && order="B A"
  for mode in ${MODES:-free apart}; do
    for v in ${VARIANTS:-ces-default ces}; do
      [ $mode = apart ] && [ $v = ces ] && continue
      for c in ${CS:-0 100 1000 10000}; do
        for x in $order; do
          eval b=\$$x
          run $x $b $v $c $mode
        done
      done
    done
  done
done | tee /dev/stderr | python3 "$D/summary.py"
