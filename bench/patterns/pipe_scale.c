//===- bench/patterns/pipe_scale.c - pipeline stage 2: scale ----*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//

#include "patterns.h"

void pipe_scale(void *arg) {
  (void)arg;
  for (uint64_t i = 0; i < pipe_items; ++i)
    pipe_put(&pipe_c2, 3 * pipe_get(&pipe_c1) + 1);
}
