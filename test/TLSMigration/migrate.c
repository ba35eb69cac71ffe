// A coroutine resumed on another thread must see that thread's errno and
// __thread variables (x86-64; migrate-aarch64.c runs it under qemu).
//
// Compiled by cacs, every case is fresh at every level and TLS model, and
// under LTO:
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O0 -fcoroutine-migration -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/O0
// RUN: %t/O0 | FileCheck %s
// RUN: %clang -O2 -fcoroutine-migration -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/O2
// RUN: %t/O2 | FileCheck %s
// RUN: %clang -O2 -fcoroutine-migration -ftls-model=initial-exec -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/ie
// RUN: %t/ie | FileCheck %s
// RUN: %clang -O2 -fcoroutine-migration -fPIC -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/pic
// RUN: %t/pic | FileCheck %s
// RUN: %clang -O2 -fcoroutine-migration -fPIC -ftls-model=global-dynamic -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/gd
// RUN: %t/gd | FileCheck %s
// RUN: %clang -O2 -fcoroutine-migration -fPIC -ftls-model=local-dynamic -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/ld
// RUN: %t/ld | FileCheck %s
// RUN: %clang -O2 -fcoroutine-migration -flto -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/lto
// RUN: %t/lto | FileCheck %s
//
// CHECK:      errno-address: fresh
// CHECK-NEXT: errno-store: fresh
// CHECK-NEXT: tls-value: fresh
// CHECK-NEXT: tls-compare: fresh
// CHECK-NEXT: tls-escape: fresh
// CHECK-NEXT: tls-loop: fresh
// CHECK-NEXT: stale: 0
//
// Stock clang, the boundary of the miscompile. -O0 is right on x86-64. At
// -O2 errno is reused (glibc declares __errno_location const) and so is
// every thread-local address that is computed (compared, stored); under the
// local-exec and initial-exec models (an executable's own variables) a load
// or store of a variable re-reads %fs, so tls-value and tls-loop are right.
// Under the dynamic models (-fPIC) __tls_get_addr's result is reused too:
// RUN: %stock_clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/stock-O0
// RUN: %t/stock-O0 | FileCheck %s
// RUN: %stock_clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/stock-O2
// RUN: %t/stock-O2 | FileCheck %s --check-prefix=STOCK-STATIC
// RUN: %stock_clang -O2 -ftls-model=initial-exec -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/stock-ie
// RUN: %t/stock-ie | FileCheck %s --check-prefix=STOCK-STATIC
// RUN: %stock_clang -O2 -fPIC -ftls-model=global-dynamic -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/stock-gd
// RUN: %t/stock-gd | FileCheck %s --check-prefix=STOCK-DYNAMIC
// RUN: %stock_clang -O2 -fPIC -ftls-model=local-dynamic -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/stock-ld
// RUN: %t/stock-ld | FileCheck %s --check-prefix=STOCK-DYNAMIC
//
// STOCK-STATIC:      errno-address: stale
// STOCK-STATIC-NEXT: errno-store: stale
// STOCK-STATIC-NEXT: tls-value: fresh
// STOCK-STATIC-NEXT: tls-compare: stale
// STOCK-STATIC-NEXT: tls-escape: stale
// STOCK-STATIC-NEXT: tls-loop: fresh
// STOCK-STATIC-NEXT: stale: 4
//
// STOCK-DYNAMIC:      errno-address: stale
// STOCK-DYNAMIC-NEXT: errno-store: stale
// STOCK-DYNAMIC-NEXT: tls-value: stale
// STOCK-DYNAMIC-NEXT: tls-compare: stale
// STOCK-DYNAMIC-NEXT: tls-escape: stale
// STOCK-DYNAMIC-NEXT: tls-loop: stale
// STOCK-DYNAMIC-NEXT: stale: 6
//
// A coroutine that migrates between two threads at every switch, and reads
// and writes errno and __thread variables on both sides of each switch.
//
// Threads A and B take turns resuming it (Inputs/turns.h), so each switch
// the coroutine makes resumes it on the other thread.
//
// Each case is a function that the compiler sees whole: it takes a thread-
// local address, or uses one, before the switch and again after it. It
// prints `<case>: fresh` when the access after the switch went to the
// resuming thread's variable, `<case>: stale` when it went to the previous
// thread's (the address was reused across the switch).

#include "Inputs/turns.h"

#include <stdio.h>

__thread int tls_global;         // default visibility
static __thread int tls_static;  // local to this unit
static __thread long tls_array[4];

static int *volatile host_global;     // its &tls_global
static int *volatile host_static;     // its &tls_static
static long *volatile host_array;     // its tls_array
static int stale_count;

// The switch, inline (an asm statement that clobbers memory).
static inline void migrate(void) { cacs_switch(&co, host, 0); }

// The switch, behind a call the optimizer cannot see through.
__attribute__((noinline)) void migrate_call(void) {
  cacs_switch(&co, host, 0);
  __asm__ volatile("" ::: "memory");
}

static void report(const char *name, int fresh) {
  printf("%s: %s\n", name, fresh ? "fresh" : "stale");
  stale_count += !fresh;
}

// &errno before and after: glibc declares __errno_location const.
__attribute__((noinline)) static void case_errno_address(void) {
  int *before = &errno;
  *before = 1001;
  migrate();
  int *after = &errno;
  *after = 1002;
  report("errno-address", after == host_errno && *host_errno == 1002);
}

// errno = ... on both sides, no address in sight.
__attribute__((noinline)) static void case_errno_store(void) {
  errno = 1003;
  migrate_call();
  errno = 1004;
  report("errno-store", *host_errno == 1004);
}

// A __thread variable read and written on both sides (no address escapes).
__attribute__((noinline)) static void case_tls_value(void) {
  tls_global = 5;
  migrate();
  tls_global += 1; // reads this thread's (0 + 1 after the reset below)
  report("tls-value", *host_global == 1);
}

// &tls_static before and after, compared: folded to "equal"?
__attribute__((noinline)) static void case_tls_compare(void) {
  int *before = &tls_static;
  migrate();
  int *after = &tls_static;
  report("tls-compare", before != after && after == host_static);
}

// The address escapes after the switch.
__attribute__((noinline)) static void case_tls_escape(int **out) {
  tls_static = 7;
  migrate_call();
  *out = &tls_static;
  report("tls-escape", *out == host_static);
}

// A loop that switches: the address must not be hoisted out of it.
__attribute__((noinline)) static void case_tls_loop(void) {
  for (int i = 0; i < 2; ++i) {
    tls_array[i] = 10 + i;
    if (i == 0)
      migrate();
  }
  report("tls-loop", host_array[1] == 11);
}

static void body(void *arg, uint64_t v) {
  (void)arg, (void)v;
  int *escaped;
  case_errno_address();
  case_errno_store();
  case_tls_value();
  case_tls_compare();
  case_tls_escape(&escaped);
  case_tls_loop();
  printf("stale: %d\n", stale_count);
  fflush(stdout);
  migrate();
  abort(); // never resumed again
}

static void on_resume(void) {
  tls_global = 0;
  host_global = &tls_global;
  host_static = &tls_static;
  host_array = tls_array;
}

int main(void) {
  return run_in_turns(body, 7); // six cases, each switching once, and the end
}
