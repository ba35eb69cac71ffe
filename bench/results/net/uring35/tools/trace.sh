#!/bin/sh
# tr.sh BIN PORT [env...]: opcode / syscall histogram in 0.5 s of pp1000
B=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)/build/bench; bin=$1; port=$2; shift 2
env "$@" taskset -c 0 $B/$bin -p $port -m echo >/dev/null 2>&1 & sp=$!
sleep 0.5; taskset -c 1 $B/net_loadgen -p $port -c 1000 -m pingpong -d 8 -w 0 >/dev/null & lp=$!
sleep 2; perf record -e io_uring:io_uring_submit_req -e io_uring:io_uring_complete -e raw_syscalls:sys_enter -e io_uring:io_uring_poll_arm -e io_uring:io_uring_cqring_wait -e sched:sched_switch -p $sp -o /tmp/trace.data -- sleep 0.5 >/dev/null 2>&1
kill $lp $sp
perf script -i /tmp/trace.data 2>/dev/null > /tmp/trace.txt
grep submit_req /tmp/trace.txt | grep -o "opcode [A-Z_]*" | sort | uniq -c
grep sys_enter /tmp/trace.txt | grep -o "NR [0-9]*" | sort | uniq -c
grep -c poll_arm /tmp/trace.txt
grep io_uring_complete /tmp/trace.txt | grep -o "result -\?[0-9]*" | sed 's/result [1-9][0-9]*/result pos/' | sort | uniq -c
