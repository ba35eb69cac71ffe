//===- bench/patterns/pp_ping.c - pingpong: main's side ---------*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//

#include "patterns.h"

volatile uint64_t pp_box;
volatile int pp_stop;

uint64_t pp_ping(uint64_t rounds) {
  uint64_t sum = 0;
  for (uint64_t i = 0; i < rounds; ++i) {
    pp_box = i;
    YIELD();
    sum += pp_box;
  }
  pp_stop = 1;
  return sum;
}
