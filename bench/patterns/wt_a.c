//===- bench/patterns/wt_a.c - waits: main's side ---------------*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
// The handler pattern (hd_a.c) with waits that yield last: each of the three
// functions publishes its request and yields as its last act, and the
// caller reads the answer after it returns, as a wait_readable() that
// registers and switches (issue 35). With -fswitch-site-jumps such a yield
// stays a call that the backend makes a tail jump: the switch resumes the
// caller directly, with no return after the resume. main.c checks the sum
// against the handler's (hd_ref): the same requests, the same answers.
//
//===----------------------------------------------------------------------===//

#include "patterns.h"

volatile uint64_t wt_box;
volatile int wt_stop;

static __attribute__((noinline)) void wt_read(uint64_t x) {
  wt_box = x;
  YIELD();
}
static __attribute__((noinline)) void wt_parse(uint64_t x) {
  wt_box = x ^ 5;
  YIELD();
}
static __attribute__((noinline)) void wt_send(uint64_t x) {
  wt_box = x + 7;
  YIELD();
}

uint64_t wt_a_run(uint64_t rounds) {
  uint64_t sum = 0;
  for (uint64_t i = 0; i < rounds; ++i) {
    wt_read(i);
    sum += wt_box + 1;
    wt_parse(i);
    sum += wt_box * 3;
    wt_send(i);
    sum += wt_box ^ 9;
  }
  wt_stop = 1;
  return sum;
}
