//===- bench/patterns/hd_a.c - handler: main's side -------------*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
// Every round calls three functions in turn, each of which yields and then
// returns, as a connection handler's read(), parse() and send() wait inside
// themselves (issue 35): after each resume the first `ret` is the called
// function's, whose return address the other side's calls have pushed out
// of the return stack buffer. main.c's hd_ref computes the same sum without
// coroutines.
//
//===----------------------------------------------------------------------===//

#include "patterns.h"

volatile uint64_t hd_box;
volatile int hd_stop;

static __attribute__((noinline)) uint64_t hd_read(uint64_t x) {
  hd_box = x;
  YIELD();
  return hd_box + 1;
}
static __attribute__((noinline)) uint64_t hd_parse(uint64_t x) {
  hd_box = x ^ 5;
  YIELD();
  return hd_box * 3;
}
static __attribute__((noinline)) uint64_t hd_send(uint64_t x) {
  hd_box = x + 7;
  YIELD();
  return hd_box ^ 9;
}

uint64_t hd_a_run(uint64_t rounds) {
  uint64_t sum = 0;
  for (uint64_t i = 0; i < rounds; ++i) {
    sum += hd_read(i);
    sum += hd_parse(i);
    sum += hd_send(i);
  }
  hd_stop = 1;
  return sum;
}
