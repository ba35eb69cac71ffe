//===- bench/patterns/pipe_sink.c - pipeline stage 4: sum (main) -*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//

#include "patterns.h"

uint64_t pipe_sink(uint64_t items) {
  uint64_t sum = 0;
  for (uint64_t i = 0; i < items; ++i)
    sum += pipe_get(&pipe_c3);
  return sum;
}
