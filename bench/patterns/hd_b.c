//===- bench/patterns/hd_b.c - handler: the coroutine's side ----*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
// The other side of hd_a.c: three functions called in turn, each answering
// the request in hd_box, yielding, and returning.
//
//===----------------------------------------------------------------------===//

#include "patterns.h"

volatile uint64_t hd_calls;

static __attribute__((noinline)) unsigned hd_recv(unsigned n) {
  hd_box = hd_box * 2 + 1;
  YIELD();
  return n + 1;
}
static __attribute__((noinline)) unsigned hd_handle(unsigned n) {
  hd_box = hd_box ^ 0x55;
  YIELD();
  return n * 3;
}
static __attribute__((noinline)) unsigned hd_reply(unsigned n) {
  hd_box = hd_box + 3;
  YIELD();
  return n ^ 6;
}

void hd_b_run(void *arg) {
  (void)arg;
  unsigned n = 0;
  while (!hd_stop) {
    n = hd_recv(n);
    n = hd_handle(n);
    n = hd_reply(n);
  }
  hd_calls = n;
}
