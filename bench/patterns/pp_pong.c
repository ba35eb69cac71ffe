//===- bench/patterns/pp_pong.c - pingpong: the coroutine's side -*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//

#include "patterns.h"

void pp_pong(void *arg) {
  (void)arg;
  while (!pp_stop) {
    pp_box = 2 * pp_box + 1;
    YIELD();
  }
}
