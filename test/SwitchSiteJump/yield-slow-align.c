// The yield's sites keep a call's 16-byte alignment no more (the frame of a
// function that calls nothing else stays as it is: SwitchSiteJump.cpp,
// JumpEnteredEntry::AlignedSite), so cacs__yield_pn_jmp's slow branch
// realigns before its C runs (yield_x86_64.S). Here yield_x86_64.S alone,
// beside a scheduler of two coroutines whose slow flag is set, and whose
// cacs__yield_slow is this file's: an aligned SSE store (movaps faults on
// an address 8 off), then back to the site without a switch. `bare` yields
// with no frame (rsp 8 off a call's alignment at the site: the slow branch
// is entered by a call), `kept` from a frame of one push, its rbp (aligned:
// entered by the jump); both then resume at their sites and return. Both
// preserve_none (-fauto-preserve-none), as a handler's functions are: a C
// function saves the five registers the yield clobbers and is aligned.
//
// clang-format off
// RUN: %clang -c -I%cacs_include -I%cacs_src_root/runtime/lib %cacs_src_root/runtime/lib/yield_x86_64.S -o %t.yield.o
// RUN: %clang -O2 -fauto-preserve-none -fswitch-site-jumps -I%cacs_include %s %t.yield.o -o %t
// RUN: %t | FileCheck %s --check-prefix=OUT
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=bare,kept %t | FileCheck %s
// clang-format on
//
// OUT: bare 8 -> 9
// OUT: kept 8 -> 25
// OUT: slow 4 aligned 4
//
// CHECK-LABEL: <bare>:
// CHECK-NEXT:    movq %r12, {{.*}}
// CHECK-NEXT:    leaq {{.*}}, %r11
// CHECK-NEXT:    movq %r11, -0x8(%rsp)
// CHECK-NEXT:    jmp {{.*}} <cacs__yield_pn_jmp>
// CHECK-LABEL: <kept>:
// CHECK-NEXT:    pushq %rbp
// CHECK-NEXT:    movq %r12, %rbp
// CHECK-NEXT:    movq %r12, {{.*}}
// CHECK-NEXT:    leaq {{.*}}, %r11
// CHECK-NEXT:    movq %r11, -0x8(%rsp)
// CHECK-NEXT:    jmp {{.*}} <cacs__yield_pn_jmp>

#include "cacs/coro.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

// The scheduler's words the entry reads (runtime/lib/coro_layout.h): the
// current coroutine at 0, the slow flag at 8 (neither its sync bit nor the
// offstack byte at 9).
_Alignas(64) __thread uint64_t cacs__sched[8];
// Two coroutines: the saved sp at 0, the next at 8.
static uint64_t co_a[8], co_b[8];

static int slow_calls, aligned_calls;

void cacs__yield_slow(uint64_t *from, uint64_t *to);
void cacs__yield_slow(uint64_t *from, uint64_t *to) {
  _Alignas(16) uint64_t v[2];
  __asm__ volatile("xorps %%xmm0, %%xmm0\n\tmovaps %%xmm0, %0"
                   : "=m"(v)
                   :
                   : "xmm0");
  if (from != co_a || to != co_b)
    abort();
  ++slow_calls;
  aligned_calls += ((uintptr_t)v & 15) == 0;
}

// What else the file refers to, never reached here.
__asm__(".text\n"
        ".globl cacs__sync_yield_abort, cacs__yield_offstack, cacs_exit\n"
        ".globl cacs__park_pn, cacs__park_timeout_pn, cacs__park_until_pn\n"
        ".globl cacs__sleep_pn, cacs__join_pn\n"
        "cacs__sync_yield_abort:\ncacs__yield_offstack:\ncacs_exit:\n"
        "cacs__park_pn:\ncacs__park_timeout_pn:\ncacs__park_until_pn:\n"
        "cacs__sleep_pn:\ncacs__join_pn:\n"
        "  ud2\n");

volatile uint64_t box, input = 8;

static __attribute__((noinline)) uint64_t bare(uint64_t x) {
  box = x;
  cacs_yield();
  return box + 1;
}

static __attribute__((noinline)) uint64_t kept(uint64_t x) {
  box = x;
  cacs_yield();
  return box + 2 * x + 1;
}

int main(void) {
  co_a[1] = (uintptr_t)co_b;
  co_b[1] = (uintptr_t)co_a;
  cacs__sched[0] = (uintptr_t)co_a;
  cacs__sched[1] = 1; // the slow flag
  for (int i = 0; i < 2; ++i) {
    uint64_t b = bare(input), k = kept(input);
    if (i == 1)
      printf("bare 8 -> %llu\nkept 8 -> %llu\n", (unsigned long long)b,
             (unsigned long long)k);
  }
  printf("slow %d aligned %d\n", slow_calls, aligned_calls);
  return 0;
}
