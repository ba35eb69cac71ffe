//===- bench/patterns/wt_b.c - waits: the coroutine's side ------*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
// The other side of wt_a.c: three functions called in turn, each answering
// the request in wt_box and yielding as its last act.
//
//===----------------------------------------------------------------------===//

#include "patterns.h"

volatile uint64_t wt_calls;

static __attribute__((noinline)) void wt_recv(void) {
  wt_box = wt_box * 2 + 1;
  YIELD();
}
static __attribute__((noinline)) void wt_handle(void) {
  wt_box = wt_box ^ 0x55;
  YIELD();
}
static __attribute__((noinline)) void wt_reply(void) {
  wt_box = wt_box + 3;
  YIELD();
}

void wt_b_run(void *arg) {
  (void)arg;
  uint64_t n = 0;
  while (!wt_stop) {
    wt_recv();
    wt_handle();
    wt_reply();
    ++n;
  }
  wt_calls = n;
}
