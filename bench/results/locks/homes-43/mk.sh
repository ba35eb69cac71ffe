#!/bin/bash
# mk.sh SRCROOT OUTDIR: libcacs.a from SRCROOT's runtime with clang-19 -O2 (quick, not the CMake build)
set -e
S=$1/runtime; O=$2; mkdir -p $O/o
objs=()
for f in $(sed -n '/^set(CACS_RT_SOURCES/,/^)/p' $S/CMakeLists.txt | grep 'lib/'); do
  o=$O/o/$(echo $f | tr / _).o
  clang-19 -O2 -gdwarf-4 -fno-strict-aliasing -fexceptions -fasynchronous-unwind-tables -Wall -Wno-unused-command-line-argument -fPIC -std=gnu11 -I$S/include -c $S/$f -o $o &
  objs+=($o)
  while [ $(jobs -r | wc -l) -ge 2 ]; do sleep 0.2; done
done
wait
rm -f $O/libcacs.a; ar rcs $O/libcacs.a "${objs[@]}"
