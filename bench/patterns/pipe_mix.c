//===- bench/patterns/pipe_mix.c - pipeline stage 3: mix --------*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//

#include "patterns.h"

void pipe_mix(void *arg) {
  (void)arg;
  for (uint64_t i = 0; i < pipe_items; ++i) {
    uint64_t v = pipe_get(&pipe_c2);
    pipe_put(&pipe_c3, v ^ (v >> 3));
  }
}
