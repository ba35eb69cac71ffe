#!/bin/bash
# The binaries of session 41's runs (Q=/tmp/l41). This worktree's build
# (./scripts/setup) did not finish in time on the loaded machine, so, as
# rw-39/rw-40 did: main's libcacs.a (the lead's build of 17:59 UTC; the
# pool's sources last changed at 0b89fe7, 16:50, and are this branch's),
# locks_cacs.c of this tree built against it by main's bin/clang; the peers
# by the system's clang 19 and go. proto: the same archive with pool_sync.c
# patched by cond-no-morph.patch (not committed), flags as rw-40's.
set -eu
Q=${Q:-/tmp/l41}; W=$(cd "$(dirname "$0")/../../../.." && pwd); M=/work/main/build
B=$Q/bin/bench; mkdir -p $B $Q/proto
cp $M/runtime/x86_64/libcacs.a $Q/libcacs-main.a
cd $W/bench/locks
nice -n 19 $M/bin/clang -O3 -fcoroutine-migration -I$W/runtime/include \
  locks_cacs.c $Q/libcacs-main.a -lpthread -o $B/locks_cacs
nice -n 19 clang-19 -O2 locks_pthread.c -lpthread -o $B/locks_pthread
nice -n 19 clang++-19 -O2 locks_fiber.cpp -lboost_fiber -lboost_context \
  -lpthread -o $B/locks_fiber
(cd go && nice -n 19 go build -o $B/locks_go .)
# The prototype (cond-no-morph.patch).
rm -rf $Q/proto/src && mkdir -p $Q/proto/src
git -C $W archive HEAD runtime | tar -x -C $Q/proto/src
patch -d $Q/proto/src -p1 < $W/bench/results/locks/cond-rw-41/cond-no-morph.patch
FL="-isystem /usr/lib/llvm-19/include -O2 -g -DNDEBUG -fPIC -D_GNU_SOURCE -D__STDC_CONSTANT_MACROS -D__STDC_FORMAT_MACROS -D__STDC_LIMIT_MACROS -O2 -gdwarf-4 -fno-strict-aliasing -fexceptions -fasynchronous-unwind-tables -Wall -std=gnu11"
cp $Q/libcacs-main.a $Q/proto/libcacs-proto.a
nice -n 19 /usr/lib/llvm-19/bin/clang -I$Q/proto/src/runtime/include $FL \
  -o $Q/proto/pool_sync.c.o -c $Q/proto/src/runtime/lib/pool/pool_sync.c
/usr/lib/llvm-19/bin/llvm-ar r $Q/proto/libcacs-proto.a $Q/proto/pool_sync.c.o
nice -n 19 $M/bin/clang -O3 -fcoroutine-migration -I$W/runtime/include \
  locks_cacs.c $Q/proto/libcacs-proto.a -lpthread -o $Q/proto/locks_cacs-proto
