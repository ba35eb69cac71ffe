#!/bin/bash
# homes and throughput of tasks spawned from main, default pool, before (base) / after (new), interleaved
cd /tmp/h43
for r in 1 2 3 4 5 6; do for shape in "-k counter -c 0 -n 20000" "-k counter -c 0 -W 10 -n 20000" "-k counter -c 0 -T 300" "-k counter -c 0 -W 10 -T 300"; do for b in base new; do
  v=ces-default; case "$shape" in *-T*) v=ces-default-main;; esac
  out=$(taskset -c 0,1 ./lk-$b -w 2 -t 64 $shape -v $v 2>&1 | tr '\n' ' ')
  echo "r=$r b=$b shape=[$shape] load=$(cut -d' ' -f1 /proc/loadavg) $out"
done; done; done
