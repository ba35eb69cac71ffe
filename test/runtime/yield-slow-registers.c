// Register survival across cacs_yield on its slow path (cacs__yield_slow,
// the C switch taken while a coroutine has CACS_CORO_SAVE_FPENV, and always
// in an ASan build of the runtime). `holder` keeps many known values live
// (integer, FP; x87 on x86-64) across every yield while a trasher coroutine
// fills every register but the stack pointer with garbage before each of
// its yields. What cacs_yield promises a
// preserve_none caller must survive: the frame pointer register (compared
// before and after; the caller's compiler may also keep a value there), the
// stack, and each side's FP environment (the holder rounds down, the trasher
// toward zero).
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -lm -o %ta && %ta | FileCheck %s
// The runtime built with ASan takes the slow path for every yield, also
// without an FP environment:
// RUN: %clang -O1 -fsanitize=address -DNO_FPENV -I%cacs_include %s $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -lm -o %tasan && %tasan | FileCheck %s
//
// CHECK: holder round 0 ok
// CHECK: holder round 1 ok
// CHECK: holder round 2 ok
// CHECK: trasher ran 3 times
// CHECK: PASS

#include "cacs/coro.h"

#include <fenv.h>
#include <stdint.h>
#include <stdio.h>

#include "Inputs/trash.h"

static int trashes, stop;
static void trasher(void *arg) {
  (void)arg;
  fesetround(FE_TOWARDZERO); // its own environment (CACS_CORO_SAVE_FPENV)
  while (!stop) {
    ++trashes;
    trash();
    yield_bad_fp();
  }
}

__attribute__((noinline)) static void holder(int round) {
  LIVE_VALUES_DEFINE(seed, dseed);
  // The frame pointer register, which a preserve_none callee preserves,
  // read before and after (volatile: the two reads cannot be merged).
  void *fp0, *fp1;
  READ_FP(fp0);
  cacs_yield(); // to the trasher and back, through cacs__yield_slow
  READ_FP(fp1);
  LIVE_VALUES_CHECK(seed, dseed, check);
  check("frame pointer", 0, fp0 == fp1);
  // Rounding: 1/3 rounded down and toward zero agree, so divide -1 by 3.
  volatile double minus_one = -1.0, three = 3.0;
  volatile double third_down = minus_one / three; // before fesetround
  int round_ok = fegetround() == FE_DOWNWARD;
#ifndef NO_FPENV
  fesetround(FE_TONEAREST);
  volatile double third_near = minus_one / three;
  check("rounding mode", 0, round_ok && third_down != third_near);
  fesetround(FE_DOWNWARD);
#else
  (void)round_ok, (void)third_down;
#endif
  printf("holder round %d %s\n", round, failures ? "FAILED" : "ok");
}

int main(void) {
#ifdef NO_FPENV
  cacs_coro *t = cacs_create(trasher, NULL, 0);
#else
  cacs_coro_attr attr = {0, 0, CACS_CORO_SAVE_FPENV, "trasher"};
  cacs_coro *t = cacs_create_ex(trasher, NULL, &attr);
  fesetround(FE_DOWNWARD);
#endif
  for (int r = 0; r < 3; ++r)
    holder(r);
  stop = 1;
  cacs_join(t);
  printf("trasher ran %d times\n", trashes);
  if (failures)
    return 1;
  printf("PASS\n");
  return 0;
}
