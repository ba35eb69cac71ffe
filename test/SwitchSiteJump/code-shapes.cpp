// Sites of -fswitch-site-jumps in the shapes of code that touch the stack,
// the frame or the control flow around a yield, each checked against the
// same program built by stock clang++ -O0, at -O0 (the pipeline does not
// lower there), -O1, -O2 with and without frame pointers, -O3 and -Os:
//  - C++ exceptions: a try block around a yield, thrown after the resume
//    and caught in the same coroutine; a throw from a callee after its own
//    yield, unwinding through the yielding frames (with destructors) to a
//    catch two frames up;
//  - setjmp before a yield, longjmp after it (returns_twice);
//  - a varargs function that yields between its va_args;
//  - a VLA live across a yield (the function may address its frame
//    through rbx: cacs_yield stays a call there, of the C entry on LLVM
//    19, of cacs__yield_pn on 22);
//  - a frame realigned for alignas(64) locals and a 20 KiB one, their
//    addresses escaped, live across the yield;
//  - SIGALRM every 20 us (setitimer) during all the switches: the kernel
//    puts its frame below the 128-byte red zone, so the resume address the
//    site stores at -8(%rsp) survives a signal between the store and the
//    entry; the handler counts, the program checks it ran.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stock_clangxx -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t/ref
// RUN: %t/ref > %t/want
// RUN: %clangxx -O0 -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t/o0
// RUN: %t/o0 | diff %t/want -
// RUN: %clangxx -O1 -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t/o1
// RUN: %t/o1 | diff %t/want -
// RUN: %clangxx -O2 -fomit-frame-pointer -fswitch-site-jumps -Rpass=switch-site-jump -I%cacs_include %s %cacs_rt_x86_64 -o %t/o2 2> %t/remarks
// RUN: %t/o2 | diff %t/want -
// RUN: FileCheck %s --check-prefix=REMARK < %t/remarks
// RUN: %clangxx -O2 -fno-omit-frame-pointer -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t/o2fp
// RUN: %t/o2fp | diff %t/want -
// RUN: %clangxx -O3 -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t/o3
// RUN: %t/o3 | diff %t/want -
// RUN: %clangxx -Os -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t/os
// RUN: %t/os | diff %t/want -
//
// Every shape but the VLA's is a jump at -O2 (and a call at -O0):
// RUN: llvm-objdump -d --no-show-raw-insn %t/o2 | FileCheck %s
// RUN: llvm-objdump -d --no-show-raw-insn %t/o0 | FileCheck %s --check-prefix=O0
// CHECK-LABEL: <_Z9try_yieldPv>:
// CHECK:         jmp {{.*}}<cacs__yield_pn_jmp>
// CHECK-LABEL: <_Z10jump_yieldPv>:
// CHECK:         jmp {{.*}}<cacs__yield_pn_jmp>
// CHECK-LABEL: <_Z9var_yieldiz>:
// CHECK:         jmp {{.*}}<cacs__yield_pn_jmp>
// CHECK-LABEL: <_Z9vla_yieldPv>:
// CHECK-NOT:     cacs__yield_pn_jmp
// CHECK:         callq {{.*}}<cacs{{(_yield|__yield_pn)}}>
// CHECK-LABEL: <_Z11align_yieldPv>:
// CHECK:         andq $-0x40, %rsp
// CHECK:         jmp {{.*}}<cacs__yield_pn_jmp>
// O0-NOT: jmp {{.*}}<cacs__yield_pn_jmp>
// REMARK-COUNT-5: remark: cacs_yield is entered by a jump at this site
// REMARK-NOT: remark

#include "cacs/coro.h"

#include <csetjmp>
#include <csignal>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <sys/time.h>

static uint64_t acc[8];
static volatile sig_atomic_t ticks;
static volatile uint64_t dtors;

struct Guard {
  uint64_t v;
  ~Guard() { dtors = dtors * 3 + v; }
};

__attribute__((noinline)) void try_yield(void *arg) {
  uint64_t a = (uintptr_t)arg;
  for (int i = 0; i < 200; ++i) {
    try {
      Guard g{a};
      a = a * 5 + (uint64_t)i;
      cacs_yield();
      if (i % 3 == 0)
        throw std::runtime_error("x");
      a ^= 0x55;
    } catch (const std::runtime_error &) {
      a += 7;
    }
  }
  acc[0] = a;
}

__attribute__((noinline)) int deep_throw(int n, uint64_t *p) {
  Guard g{(uint64_t)n};
  uint64_t v = *p * 3 + (uint64_t)n;
  cacs_yield();
  if (n == 0)
    throw (int)(v % 1000);
  return deep_throw(n - 1, p) + (int)v;
}

__attribute__((noinline)) void throw_yield(void *arg) {
  uint64_t a = (uintptr_t)arg;
  for (int i = 0; i < 50; ++i) {
    try {
      a += (uint64_t)deep_throw(i % 4, &a);
    } catch (int e) {
      a = a * 7 + (uint64_t)e;
    }
  }
  acc[1] = a;
}

static jmp_buf jb;
__attribute__((noinline)) void jump_yield(void *arg) {
  volatile uint64_t a = (uintptr_t)arg;
  volatile int n = 0;
  if (setjmp(jb) < 100) {
    a = a * 11 + (uint64_t)n;
    cacs_yield();
    if (++n < 100)
      longjmp(jb, n);
  }
  acc[2] = a;
}

__attribute__((noinline)) uint64_t var_yield(int n, ...) {
  va_list ap;
  va_start(ap, n);
  uint64_t a = 1;
  for (int i = 0; i < n; ++i) {
    a = a * 31 + va_arg(ap, uint64_t);
    cacs_yield();
    a ^= (uint64_t)va_arg(ap, double);
  }
  va_end(ap);
  return a;
}

__attribute__((noinline)) void var_entry(void *) {
  uint64_t a = 0;
  for (int i = 0; i < 40; ++i)
    a += var_yield(3, (uint64_t)i, 1.5 * i, (uint64_t)i * 7, 2.5 * i,
                   (uint64_t)i + 9, 3.25 * i);
  acc[3] = a;
}

__attribute__((noinline)) void vla_yield(void *arg) {
  int n = 16 + (int)((uintptr_t)arg % 7);
  uint64_t v[n];
  for (int i = 0; i < n; ++i)
    v[i] = (uint64_t)i * 3;
  for (int r = 0; r < 100; ++r) {
    v[r % n] += (uint64_t)r;
    cacs_yield();
    v[(r * 5) % n] ^= v[r % n] << 1;
  }
  uint64_t s = 0;
  for (int i = 0; i < n; ++i)
    s = s * 131 + v[i];
  acc[4] = s;
}

__attribute__((noinline)) void sink(void *p, size_t n) {
  __asm__ volatile("" : : "r"(p), "r"(n) : "memory");
}

__attribute__((noinline)) void align_yield(void *arg) {
  alignas(64) uint64_t line[8];
  char big[20480];
  uint64_t a = (uintptr_t)arg;
  memset(big, 1, sizeof big);
  for (int i = 0; i < 8; ++i)
    line[i] = a + (uint64_t)i;
  for (int r = 0; r < 200; ++r) {
    line[r % 8] = line[r % 8] * 7 + (uint64_t)r;
    big[(r * 97) % sizeof big] += (char)r;
    sink(line, sizeof line);
    sink(big, sizeof big);
    cacs_yield();
    if ((uintptr_t)line % 64)
      acc[5] = 0xbad;
    a += line[(r + 3) % 8] + (uint64_t)big[(r * 89) % sizeof big];
  }
  acc[5] += a;
}

static void on_alarm(int) { ticks = ticks + 1; }

int main() {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &sa, nullptr);
  struct itimerval it = {{0, 20}, {0, 20}};
  setitimer(ITIMER_REAL, &it, nullptr);

  void (*fns[])(void *) = {try_yield, throw_yield, jump_yield, var_entry,
                           vla_yield, align_yield};
  const int N = sizeof fns / sizeof fns[0];
  uint64_t total = 0;
  // Repeat until some signals have arrived during the switches (each
  // round prints the same).
  for (int round = 0; round < 200 && (round < 5 || ticks < 50); ++round) {
    cacs_coro *c[N];
    for (int i = 0; i < N; ++i)
      c[i] = cacs_create(fns[i], (void *)(uintptr_t)(i * 100 + 1),
                         128 * 1024);
    for (int i = 0; i < N; ++i)
      cacs_join(c[i]);
    total = total * 3 + acc[0] + acc[1] + acc[2] + acc[3] + acc[4] + acc[5];
    memset(acc, 0, sizeof acc);
    if (round == 0) {
      printf("first %llu dtors %llu\n", (unsigned long long)total,
             (unsigned long long)dtors);
    }
  }
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, nullptr);
  printf("signals %s\n", ticks > 0 ? "arrived" : "none");
  return 0;
}
