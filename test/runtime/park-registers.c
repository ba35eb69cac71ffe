// Register survival across the waiting calls (cacs_park, cacs_park_timeout
// woken and timed out, cacs_sleep, cacs_join; cacs_yield beside them) while
// a trasher coroutine puts garbage in every register, the frame pointer
// included, before each switch back.
//
// 1. Each entry called from assembly with known values in every
//    callee-saved register of the C convention (Inputs/probe.h): what comes
//    back changed must be what the entry's convention allows: nothing for
//    the default-convention symbols (cacs_park, ...), all but the frame
//    pointer for the preserve_none entries (cacs__park_pn, ...), all but
//    the frame and base pointers for their _bp variants. Some garbage must
//    reach the preserve_none probes (the trasher really ran in between).
// 2. A C caller keeps many values live across each call as the header binds
//    it for this compiler and these flags (LIVE_VALUES: every register the
//    compiler allocates), and compares the frame pointer register.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang -O3 -fno-omit-frame-pointer -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O2 -DCACS_YIELD_FULL_SAVE=1 -I%cacs_include %s %cacs_rt_x86_64 -o %tf && %tf | FileCheck %s
// RUN: %stock_clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %ts && %ts | FileCheck %s
// RUN: %stock_clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %ts0 && %ts0 | FileCheck %s
// RUN: %if gcc %{ gcc -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %tg && %tg | FileCheck %s %}
// The runtime built with ASan takes cacs__yield_slow on every switch; built
// by stock clang 19, its preserve_none entries must not be instrumented
// (coro.h, CACS__PN_DEF: a backend fatal error otherwise):
// RUN: %clang -O1 -fsanitize=address -I%cacs_include %s $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -o %tasan && %tasan | FileCheck %s
// RUN: %stock_clang -O1 -fsanitize=address -I%cacs_include %s $(%cacs_rt_objs %stock_clang -O1 -fsanitize=address -I%cacs_include) -o %tsasan && %tsasan | FileCheck %s
//
// CHECK: probes: 18 entries ok, garbage seen by the preserve_none ones
// CHECK-NEXT: park ok
// CHECK-NEXT: park_timeout woken ok
// CHECK-NEXT: park_timeout expired ok
// CHECK-NEXT: sleep ok
// CHECK-NEXT: join ok
// CHECK-NEXT: yield ok
// CHECK-NEXT: PASS

#include "cacs/coro.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "Inputs/probe.h"
#include "Inputs/trash.h"

static cacs_coro *holder;
static volatile int stop, wake_holder;

static void trasher(void *arg) {
  (void)arg;
  while (!stop) {
    if (wake_holder)
      cacs_wake(holder);
    trash();
    yield_bad_fp();
  }
}

// Finishes after a few switches: what cacs_join waits for.
static void finisher(void *arg) {
  (void)arg;
  for (int i = 0; i < 3; ++i)
    cacs_yield();
}

// --- 1. the entries, called from assembly (Inputs/probe.h) ------------------

// The entries by symbol (the header binds the names to one of them).
#define ENTRIES(X)                                                             \
  X(park, WAIT_PARK) X(park_timeout, WAIT_PARK_TIMEOUT) X(sleep, WAIT_SLEEP)   \
  X(join, WAIT_JOIN) X(yield, WAIT_YIELD)
ENTRIES(PROBE_DECLARE)

enum wait_kind {
  WAIT_PARK,
  WAIT_PARK_TIMEOUT,
  WAIT_PARK_EXPIRE,
  WAIT_SLEEP,
  WAIT_JOIN,
  WAIT_YIELD
};

// The argument of a wait of this kind, and whether the trasher wakes us.
static uint64_t wait_setup(enum wait_kind kind) {
  wake_holder = kind == WAIT_PARK || kind == WAIT_PARK_TIMEOUT;
  switch (kind) {
  case WAIT_PARK_TIMEOUT:
    return 10 * 1000 * 1000; // woken long before
  case WAIT_PARK_EXPIRE:
  case WAIT_SLEEP:
    return 1000;
  case WAIT_JOIN:
    return (uint64_t)(uintptr_t)cacs_create(finisher, NULL, 0);
  default:
    return 0;
  }
}

static void probe_entry(const char *name, void *fn, enum wait_kind kind,
                        enum probe_conv conv) {
  uint64_t args[5] = {wait_setup(kind)};
  probe_check(name, conv, probe(fn, args, conv != CONV_C));
}

static void probe_all(void) {
  int n = 0;
  ENTRIES(PROBE_ALL)
  // cacs_park_timeout once more, running into its timeout.
  PROBE_ALL(park_timeout, WAIT_PARK_EXPIRE)
  probe_report(n);
}

// --- 2. a C caller with many live values -------------------------------------

__attribute__((noinline)) static void live_across(enum wait_kind kind,
                                                  const char *name) {
  uint64_t arg = wait_setup(kind);
  int before = failures;
  LIVE_VALUES_DEFINE(seed, dseed);
  void *fp0, *fp1;
  READ_FP(fp0);
  int r = 0;
  switch (kind) {
  case WAIT_PARK:
    cacs_park();
    break;
  case WAIT_PARK_TIMEOUT:
  case WAIT_PARK_EXPIRE:
    r = cacs_park_timeout((int64_t)arg);
    break;
  case WAIT_SLEEP:
    r = cacs_sleep((int64_t)arg);
    break;
  case WAIT_JOIN:
    r = cacs_join((cacs_coro *)(uintptr_t)arg);
    break;
  case WAIT_YIELD:
    cacs_yield();
    break;
  }
  READ_FP(fp1);
  LIVE_VALUES_CHECK(seed, dseed, check);
  check("frame pointer", 0, fp0 == fp1);
  check("result", 0,
        kind == WAIT_PARK_EXPIRE ? r == -1 && errno == ETIMEDOUT : r == 0);
  printf("%s %s\n", name, failures == before ? "ok" : "FAILED");
}

int main(void) {
  watchdog(60);
  holder = cacs_self();
  cacs_coro *t = cacs_create(trasher, NULL, 0);
  probe_all();
  live_across(WAIT_PARK, "park");
  live_across(WAIT_PARK_TIMEOUT, "park_timeout woken");
  live_across(WAIT_PARK_EXPIRE, "park_timeout expired");
  live_across(WAIT_SLEEP, "sleep");
  live_across(WAIT_JOIN, "join");
  live_across(WAIT_YIELD, "yield");
  stop = 1;
  cacs_join(t);
  if (failures)
    return 1;
  printf("PASS\n");
  return 0;
}
