//===- bench/patterns/pipe_gen.c - pipeline stage 1: generate ---*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//

#include "patterns.h"

pipe_chan pipe_c1, pipe_c2, pipe_c3;
uint64_t pipe_items;

void pipe_gen(void *arg) {
  (void)arg;
  for (uint64_t i = 0; i < pipe_items; ++i)
    pipe_put(&pipe_c1, i);
}
