#!/bin/sh
# Generator comparison: rounds of (epoll loadgen, uring loadgen, wrk), interleaved.
cd "$(dirname "$0")/../../../.."  # the source tree; a built build/
M=bench/results/net/uring35/tools/measure.py
S="epoll=net_server_epoll;cacs=net_server_cacs"
for r in 1 2 3 4 5; do
  for g in epoll uring wrk; do
    if [ $g = wrk ]; then args="--engine uring --http-load wrk --points http100"
    else args="--engine $g --http-load loadgen --points pp1000,http100"; fi
    python3 $M --bdir ${BDIR:-build/bench} --rt 0 $args --reps 1 --secs 3 \
      --servers "$S" --json /tmp/gens-$r-$g.json 2>&1 | grep -v "^==\|^  " | sed "s/^/$g /"
  done
done
