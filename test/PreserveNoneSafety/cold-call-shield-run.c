// A producer coroutine and main pass 100,000 bytes through a 64-byte pipe,
// byte by byte, each yielding only when the pipe is full or empty (hinted
// rare): the shape of bench/patterns' server client. Both yields go through
// a shield (shieldsColdCall), and the checksum must equal the one of a plain
// build: the program and libcacs from its sources with stock clang -O0.
//
// RUN: %stock_clang -O0 -I%cacs_include %s $(%cacs_rt_objs %stock_clang -O0 -I%cacs_include) -lpthread -o %tref
// RUN: %tref > %t.ref && FileCheck %s < %t.ref
// RUN: %clang -O2 -fauto-preserve-none -Rpass=preserve-none-safety -I%cacs_include %s %cacs_rt_x86_64 -o %t2 2> %t2.remarks && timeout 120 %t2 | diff %t.ref -
// RUN: FileCheck %s --check-prefix=REMARK < %t2.remarks
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t3 && timeout 120 %t3 | diff %t.ref -
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -fauto-preserve-none -Rpass=preserve-none-safety -I%cacs_include %s %cacs_rt_aarch64 -o %ta 2> %ta.remarks && timeout 120 %run_aarch64 %ta | diff %t.ref - %}
// RUN: %if qemu-aarch64 %{ FileCheck %s --check-prefix=REMARK < %ta.remarks %}
//
// CHECK: bytes=100000 yields={{[0-9]+}} sum=[[SUM:[0-9]+]]
//
// REMARK-DAG: remark: a preserve_none call in 'producer' goes through a shield (callee 'cacs__yield_{{[a-z_]+}}'): the call is rare, and the hot path around it keeps its callee-saved registers
// REMARK-DAG: remark: a preserve_none call in 'main' goes through a shield (callee 'cacs__yield_{{[a-z_]+}}'): the call is rare, and the hot path around it keeps its callee-saved registers

#include "cacs/coro.h"

#include <stdint.h>
#include <stdio.h>

// cold-wait-loop-run.c builds the program as a user writes it, unhinted.
#ifndef WAIT_RARE
#define WAIT_RARE(cond) __builtin_expect((cond), 0)
#endif

#define BYTES 100000

static struct {
  unsigned char buf[64];
  unsigned head, len;
  int closed;
} pipe_;
static unsigned long yields;

static void producer(void *arg) {
  uint64_t n = *(uint64_t *)arg, x = 12345;
  for (uint64_t i = 0; i < n; ++i) {
    while (WAIT_RARE(pipe_.len == sizeof pipe_.buf)) {
      ++yields;
      cacs_yield();
    }
    x = x * 6364136223846793005u + 1442695040888963407u;
    pipe_.buf[(pipe_.head + pipe_.len) % sizeof pipe_.buf] =
        (unsigned char)(x >> 56);
    ++pipe_.len;
  }
  pipe_.closed = 1;
}

int main(void) {
  uint64_t n = BYTES, sum = 0, got = 0;
  cacs_coro *c = cacs_create(producer, &n, 0);
  for (;;) {
    while (WAIT_RARE(!pipe_.len)) {
      if (pipe_.closed)
        goto done;
      ++yields;
      cacs_yield();
    }
    sum = sum * 31 + (uint64_t)pipe_.buf[pipe_.head] * (got + 1);
    pipe_.head = (pipe_.head + 1) % sizeof pipe_.buf;
    --pipe_.len;
    ++got;
  }
done:
  cacs_join(c);
  printf("bytes=%llu yields=%lu sum=%llu\n", (unsigned long long)got, yields,
         (unsigned long long)sum);
  return 0;
}
