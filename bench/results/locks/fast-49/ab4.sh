#!/bin/bash
# 4 libraries, default pool, 64 tasks counter shape; rounds in shuffled order.
cd /work/wt/fast49
P=$(/tmp/fast49/main/locks_cacs -k calibrate | sed -n 's/^PAD per_ns=//p')
echo "# pad=$P $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq ${ROUNDS:-7}); do
  for b in $(printf "$BINS" | shuf); do
    bin=/tmp/fast49/$b/locks_cacs; [ $b = fast ] && bin=build/bench/locks_cacs
    for mode in free apart; do for c in 0 100 1000; do
      args="-w 2 -t 64 -c $c -k counter -T 500 -p $P -v ces-default"
      if [ $mode = apart ]; then out=$(taskset -c 0,1 python3 bench/results/locks/mutex-48/pin2.py $bin $args 2>&1)
      else out=$(taskset -c 0,1 $bin $args 2>&1); fi
      echo "$b $mode c$c $(echo "$out" | grep -oE 'mops=[0-9.]+' | head -1) load $(cut -d' ' -f1 /proc/loadavg)"
    done; done
  done
done
echo "# end $(date -u +%T)"
