#!/bin/bash
# The binaries of cond-44 (Q=/tmp/l44): libcacs.a of the branch's base
# (BASE, default the merge base with main) and of HEAD (runnext), both built
# by homes-43/mk.sh (clang-19 -O2, not the CMake build); against each,
# locks_cacs (bench/locks) and HEAD's test/pool/pool-runnext.c (how many
# woken waiters of a producer-consumer chain run on another worker than
# their waker's), linked by the cacs driver (-fcoroutine-migration).
set -eu
Q=${Q:-/tmp/l44}; W=$(cd "$(dirname "$0")/../../../.." && pwd)
BASE=${BASE:-$(git -C $W merge-base HEAD main)}
CC=${CACS_CC:-$W/build/bin/clang}
[ -x "$CC" ] || CC=/work/main/build/bin/clang
rm -rf $Q/base-src $Q/new-src; mkdir -p $Q/base-src $Q/new-src $Q/bench
git -C $W archive $BASE runtime test/pool | tar -x -C $Q/base-src
git -C $W archive HEAD runtime test/pool | tar -x -C $Q/new-src
for v in base new; do
  bash $W/bench/results/locks/homes-43/mk.sh $Q/$v-src $Q/$v
  $CC -O3 -fcoroutine-migration -I$Q/$v-src/runtime/include \
    $W/bench/locks/locks_cacs.c $Q/$v/libcacs.a -lpthread \
    -o $Q/bench/locks_cacs-$v
  $CC -O2 -fcoroutine-migration -I$Q/$v-src/runtime/include \
    -I$Q/new-src/test/pool/Inputs $Q/new-src/test/pool/pool-runnext.c \
    $Q/$v/libcacs.a -lpthread -o $Q/bench/runnext-$v
done
