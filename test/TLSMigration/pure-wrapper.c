// A function the program declares `pure` or `const` whose body switches
// (here it waits for a flag, switching until it is set, and resumes on
// another thread each time) tells LLVM that it writes no memory. Its
// callers then reuse errno's and a __thread variable's address across the
// call, as if no switch were in it: with -fcoroutine-migration the
// rewritten accessors are calls that read inaccessible memory, and a call
// that writes none is no reason to call them again. cacs drops the
// attribute from such a definition and from the calls of it in the unit
// (and warns: pure-wrapper-warning.c), so every case is fresh at -O2,
// -fPIC (global-dynamic) and LTO, on x86-64 and AArch64.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 -fcoroutine-migration -w -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/O2
// RUN: %t/O2 | FileCheck %s
// RUN: %clang -O2 -fcoroutine-migration -fPIC -ftls-model=global-dynamic -w -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/gd
// RUN: %t/gd | FileCheck %s
// RUN: %clang -O2 -flto -fcoroutine-migration -w -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/lto
// RUN: %t/lto | FileCheck %s
// RUN: %clang -O2 -flto=thin -fcoroutine-migration -w -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/thin
// RUN: %t/thin | FileCheck %s
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -fcoroutine-migration -w -I%cacs_include %s %cacs_rt_aarch64 -lpthread -o %t/a64 %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %t/a64 | FileCheck %s %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -fcoroutine-migration -fPIC -ftls-model=global-dynamic -w -I%cacs_include %s %cacs_rt_aarch64 -lpthread -o %t/a64-gd %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %t/a64-gd | FileCheck %s %}
//
// CHECK:      pure-errno: fresh
// CHECK-NEXT: pure-tls-compare: fresh
// CHECK-NEXT: const-errno: fresh
// CHECK-NEXT: const-tls-value: fresh
// CHECK-NEXT: stale: 0
//
// Without the drop (the warning alone), every case is stale at -O2 on both
// targets: `stale: 4`.

#include "Inputs/turns.h"

#include <stdio.h>

__thread int tls_var;

static int *volatile host_tls; // the resuming thread's &tls_var
static int stale_count;
static int ready = 1;

// The switch, behind a call the optimizer cannot see through.
__attribute__((noinline)) void migrate_call(void) {
  cacs_switch(&co, host, 0);
  __asm__ volatile("" ::: "memory");
}

#ifndef WRAPPERS_ELSEWHERE
#include "Inputs/pure-wrappers.c"
#else
__attribute__((pure)) int wait_flag(const int *flag);
__attribute__((const)) int wait_const(void);
#endif

static void report(const char *name, int fresh) {
  printf("%s: %s\n", name, fresh ? "fresh" : "stale");
  stale_count += !fresh;
}

__attribute__((noinline)) static void case_pure_errno(void) {
  errno = 1003;
  int r = wait_flag(&ready);
  errno = 1003 + r;
  report("pure-errno", *host_errno == 1004);
}

__attribute__((noinline)) static void case_pure_tls_compare(void) {
  int *before = &tls_var;
  int r = wait_flag(&ready);
  int *after = &tls_var;
  report("pure-tls-compare", r == 1 && before != after && after == host_tls);
}

__attribute__((noinline)) static void case_const_errno(void) {
  errno = 1005;
  int r = wait_const();
  errno = 1005 + r;
  report("const-errno", *host_errno == 1006);
}

__attribute__((noinline)) static void case_const_tls_value(void) {
  tls_var = 5;
  int r = wait_const();
  tls_var += r; // this thread's: 0 + 1
  report("const-tls-value", *host_tls == 1);
}

static void body(void *arg, uint64_t v) {
  (void)arg, (void)v;
  case_pure_errno();
  case_pure_tls_compare();
  case_const_errno();
  case_const_tls_value();
  printf("stale: %d\n", stale_count);
  fflush(stdout);
  migrate_call();
  abort(); // never resumed again
}

static void on_resume(void) {
  tls_var = 0;
  host_tls = &tls_var;
}

int main(void) {
  return run_in_turns(body, 5); // four cases, each switching once, and the end
}
