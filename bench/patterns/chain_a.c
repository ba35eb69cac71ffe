//===- bench/patterns/chain_a.c - chain: main's side, 5 frames deep -*- C -*-=//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
// Every round descends a1 -> a5, yields in a5 from one of two sites, and
// returns up the chain: the returns after a switch are the ones a
// return-address predictor has to get right too. main.c's chain_ref
// computes the same sum without coroutines.
//
//===----------------------------------------------------------------------===//

#include "patterns.h"

volatile int chain_stop;
volatile uint64_t chain_box;

static __attribute__((noinline)) uint64_t a5(uint64_t x) {
  if (x & 4) {
    chain_box = x;
    YIELD();
    return chain_box + 5;
  }
  chain_box = x + 9;
  YIELD();
  return chain_box ^ 5;
}
static __attribute__((noinline)) uint64_t a4(uint64_t x) {
  return a5(x * 2) + 4;
}
static __attribute__((noinline)) uint64_t a3(uint64_t x) {
  return a4(x + 3) + 3;
}
static __attribute__((noinline)) uint64_t a2(uint64_t x) {
  return a3(x ^ 2) + 2;
}
static __attribute__((noinline)) uint64_t a1(uint64_t x) {
  return a2(x + 1) + 1;
}

uint64_t chain_a_run(uint64_t rounds) {
  uint64_t sum = 0;
  for (uint64_t i = 0; i < rounds; ++i)
    sum += a1(i);
  chain_stop = 1;
  return sum;
}
