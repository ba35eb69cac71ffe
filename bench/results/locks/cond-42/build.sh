#!/bin/bash
# The binaries of cond-42 (Q=/tmp/c42): locks_cacs of this tree against
# main's libcacs.a (604c4d8, the base of branch cond42) and against the
# same archive with this branch's pool_sync.c (the only runtime file the
# branch changes), both by main's bin/clang as session 41's build.sh did.
# This branch's own build (build/bench/locks_cacs and the peers, from
# `ninja -C build bench/locks_cacs bench/locks_pthread bench/locks_fiber
# bench/locks/bench-locks_go`) is what run.py --build build runs.
set -eu
Q=${Q:-/tmp/c42}; W=$(cd "$(dirname "$0")/../../../.." && pwd); M=/work/main/build
mkdir -p $Q/bench
cp $M/runtime/x86_64/libcacs.a $Q/libcacs-main.a
cp $Q/libcacs-main.a $Q/libcacs.a
/usr/lib/llvm-19/bin/clang -D_GNU_SOURCE -I$W/runtime/include -O2 -g -DNDEBUG \
  -fPIC -gdwarf-4 -fno-strict-aliasing -fexceptions \
  -fasynchronous-unwind-tables -Wall -std=gnu11 \
  -c $W/runtime/lib/pool/pool_sync.c -o $Q/pool_sync.c.o
(cd $Q && ar r libcacs.a pool_sync.c.o)
cd $W/bench/locks
$M/bin/clang -O3 -fcoroutine-migration -I$W/runtime/include locks_cacs.c \
  $Q/libcacs-main.a -lpthread -o $Q/bench/locks_cacs-main
$M/bin/clang -O3 -fcoroutine-migration -I$W/runtime/include locks_cacs.c \
  $Q/libcacs.a -lpthread -o $Q/bench/locks_cacs-new
