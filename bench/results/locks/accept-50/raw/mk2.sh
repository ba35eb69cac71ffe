#!/bin/sh
# mk2.sh NAME SRC [SRC...] (env CFLAGS_X): locks_cacs with these runtime/lib/pool sources replaced
set -e
W=/work/main; d=/tmp/q50/$1; shift; mkdir -p $d
CF="-I$W/runtime/include -iquote $W/runtime/lib/pool -iquote $W/runtime/lib -isystem /usr/lib/llvm-19/include -O2 -g -DNDEBUG -fPIC -D_GNU_SOURCE -O2 -gdwarf-4 -fno-strict-aliasing -fexceptions -fasynchronous-unwind-tables -Wall -std=gnu11"
cp $W/build/runtime/x86_64/libcacs.a $d/libcacs.a
for S in "$@"; do o=$(basename $S | sed 's/\.c$//; s/-.*//').c.o
  /usr/lib/llvm-19/bin/clang $CF $CFLAGS_X -c $S -o $d/$o; ( cd $d && /usr/lib/llvm-19/bin/llvm-ar r libcacs.a $o ); done
$W/build/bin/clang -O3 -fcoroutine-migration -I$W/bench/common -I$W/runtime/include $W/bench/locks/locks_cacs.c $d/libcacs.a -lpthread -o $d/locks_cacs
echo built $d
