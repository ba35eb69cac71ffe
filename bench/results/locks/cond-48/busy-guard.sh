#!/bin/bash
# guard.sh: busy loops pinned on CPUs 0 and 1; REPS rounds, each shape x
# pool x library in a shuffled order; one line per run: library pool shape M/s.
# SHAPES (lines of locks_cacs arguments) and PAIRS (library:variant words)
# override the defaults (the lead's quiet-window guard, guard-quiet.txt:
# SHAPES=$'-k counter -c 0 -n 20000\n-k cond -u 16 -n 3000\n-k counter -c 1000 -n 5000'
# PAIRS="base:ces-default new:ces-default" REPS=15).
set -u
B=()
taskset -c 0 timeout 900 sh -c 'while :; do :; done' & B+=($!)
taskset -c 1 timeout 900 sh -c 'while :; do :; done' & B+=($!)
trap 'pkill -P "$(IFS=,; echo "${B[*]}")" 2>/dev/null; kill ${B[*]} 2>/dev/null || true' EXIT
sleep 1
Q=${Q:-/tmp/c48}
cat /proc/loadavg
for r in $(seq ${REPS:-5}); do
  while read -r s; do
    for xv in $(printf '%s\n' ${PAIRS:-base:ces new:ces base:ces-default new:ces-default} | shuf); do
      x=${xv%%:*}; v=${xv#*:}
      m=$(taskset -c 0,1 timeout 60 $Q/bench/locks_cacs-$x -w 2 -t 64 -c 0 -d 1000 -p 0.95 $s -v $v </dev/null 2>/dev/null | grep -o 'mops=[0-9.]*' || echo FAILED)
      echo "$x $v $s $m"
    done
  done <<< "${SHAPES:-$'-k counter -c 1000 -n 5000\n-k cond -u 16 -n 3000\n-k cond -u 1 -n 3000'}"
done
cat /proc/loadavg
