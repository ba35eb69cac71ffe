#!/bin/bash
# Quiet shuffled interleaved rounds: "label=path[:variant]" in IMPLS, cells in CS.
# Output: label c mops cpu load
B=/work/main/build/bench
P=$(taskset -c 0 $B/locks_pthread -k calibrate | sed -n 's/^PAD per_ns=//p')
[ -n "$P" ] || P=$(taskset -c 0 $B/locks_pthread -k calibrate | grep -oE '[0-9.]+' | head -1)
echo "# pad=$P $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq ${ROUNDS:-12}); do
  jobs=""
  for i in $IMPLS; do for c in $CS; do jobs="$jobs $i@$c"; done; done
  for j in $(printf "%s\n" $jobs | shuf); do
    i=${j%@*}; c=${j#*@}; lab=${i%%=*}; pv=${i#*=}; path=${pv%%:*}; v=""
    [ "$pv" != "$path" ] && v="-v ${pv#*:}"
    s0=$(cut -d' ' -f1 /proc/loadavg)
    out=$( { /usr/bin/time -f "cpu=%U+%S" taskset -c 0,1 $path -w ${WK:-2} -t ${TASKS:-64} -c $c -k counter $EXTRA $( [ "${T:-500}" = 0 ] || echo -T ${T:-500}) -p $P $v; } 2>&1)
    echo "$lab $c $(echo "$out" | grep -oE 'mops=[0-9.]+' | head -1) $(echo "$out" | grep -oE 'cpu=[0-9.+]+') load $s0"
  done
done
echo "# end $(date -u +%T)"
