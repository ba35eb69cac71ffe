// Symmetric coroutines: strict round-robin order, 100,000 create/run/join,
// one scheduler per thread, per-coroutine FP environment, API edge cases.
// Arguments: yields per coroutine, total coroutines for the mass test.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -lm -o %t0 && %t0 100000 100000 | FileCheck %s
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -lm -o %t2 && %t2 1000000 100000 | FileCheck %s
// RUN: %clang -O3 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -lpthread -lm -o %t3 && %t3 1000000 100000 | FileCheck %s
// RUN: %clang -O1 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -lpthread -lm -o %t1 && %t1 100000 100000 | FileCheck %s
//
// CHECK: order: 10 coroutines x [[N:[0-9]+]] yields, errors 0
// CHECK: mass: [[M:[0-9]+]] coroutines, sum ok
// CHECK: threads: 4 x 10 coroutines ok
// CHECK: fpenv: private ok, shared ok
// CHECK: api ok
// CHECK: PASS

#include "cacs/coro.h"

#include <fenv.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "Inputs/check.h"

// --- 1. strict round-robin order -----------------------------------------

typedef struct order_arg {
  int index;
  long n;
  long done;
  uint64_t acc; // state kept across yields
} order_arg;
static int turn;
static long order_errors;

static void order_entry(void *p) {
  order_arg *a = (order_arg *)p;
  uint64_t acc = (uint64_t)a->index * 1000003u;
  for (long k = 0; k < a->n; ++k) {
    if (turn != a->index)
      ++order_errors;
    turn = (a->index + 1) % 10;
    acc = acc * 6364136223846793005ull + (uint64_t)k;
    cacs_yield();
  }
  a->acc = acc;
  a->done = a->n;
}

static void test_order(long n) {
  order_arg args[10];
  cacs_coro *c[10];
  turn = 0;
  for (int i = 0; i < 10; ++i) {
    args[i] = (order_arg){i, n, 0, 0};
    c[i] = cacs_create(order_entry, &args[i], 0);
    EXPECT(c[i] != NULL);
  }
  EXPECT(cacs_count() == 10);
  for (int i = 0; i < 10; ++i)
    EXPECT(cacs_join(c[i]) == 0);
  for (int i = 0; i < 10; ++i) {
    uint64_t acc = (uint64_t)i * 1000003u;
    for (long k = 0; k < n; ++k)
      acc = acc * 6364136223846793005ull + (uint64_t)k;
    EXPECT(args[i].done == n);
    EXPECT(args[i].acc == acc);
  }
  EXPECT(cacs_count() == 0);
  printf("order: 10 coroutines x %ld yields, errors %ld\n", n, order_errors);
  EXPECT(order_errors == 0);
}

// --- 2. many coroutines -------------------------------------------------------

static uint64_t mass_sum;
static void mass_entry(void *p) {
  uint64_t v = (uint64_t)(uintptr_t)p;
  mass_sum += v;
  cacs_yield();
  mass_sum += v * 3;
}

static void test_mass(long total) {
  enum { WAVE = 10000 };
  static cacs_coro *c[WAVE];
  uint64_t expect = 0;
  long made = 0;
  while (made < total) {
    long w = total - made < WAVE ? total - made : WAVE;
    for (long i = 0; i < w; ++i) {
      uint64_t v = (uint64_t)(made + i + 1);
      expect += v * 4;
      c[i] = cacs_create(mass_entry, (void *)(uintptr_t)v, 0);
      if (!c[i]) {
        printf("FAIL create %ld\n", made + i);
        exit(1);
      }
    }
    for (long i = 0; i < w; ++i)
      cacs_join(c[i]);
    made += w;
  }
  EXPECT(mass_sum == expect);
  printf("mass: %ld coroutines, sum %s\n", total,
         mass_sum == expect ? "ok" : "WRONG");
}

// --- 3. one scheduler per thread ----------------------------------------------

typedef struct thr_arg {
  int id;
  long result;
} thr_arg;
static void thr_entry(void *p) {
  long *slot = (long *)p;
  for (int k = 0; k < 1000; ++k) {
    *slot += k;
    cacs_yield();
  }
}
static void *thr_main(void *p) {
  thr_arg *t = (thr_arg *)p;
  long slots[10] = {0};
  cacs_coro *c[10];
  for (int i = 0; i < 10; ++i)
    c[i] = cacs_create(thr_entry, &slots[i], CACS_STACK_SMALL_SIZE);
  for (int i = 0; i < 10; ++i)
    cacs_join(c[i]);
  for (int i = 0; i < 10; ++i)
    t->result += slots[i];
  return NULL;
}
static void test_threads(void) {
  pthread_t th[4];
  thr_arg ta[4];
  for (int i = 0; i < 4; ++i) {
    ta[i] = (thr_arg){i, 0};
    pthread_create(&th[i], NULL, thr_main, &ta[i]);
  }
  int ok = 1;
  for (int i = 0; i < 4; ++i) {
    pthread_join(th[i], NULL);
    ok &= ta[i].result == 10L * (999 * 1000 / 2);
  }
  EXPECT(ok);
  printf("threads: 4 x 10 coroutines %s\n", ok ? "ok" : "WRONG");
}

// --- 4. FP environment policy ------------------------------------------------

static int private_mode, shared_mode_seen;
static void fp_private(void *p) {
  (void)p;
  fesetround(FE_UPWARD); // private: must not leak to others
  cacs_yield();
  private_mode = fegetround();
}
static void fp_shared(void *p) {
  (void)p;
  cacs_yield();
  shared_mode_seen = fegetround();
}
static void test_fpenv(void) {
  cacs_coro_attr a = {0, 0, CACS_CORO_SAVE_FPENV, "fp-private"};
  cacs_coro *p = cacs_create_ex(fp_private, NULL, &a);
  cacs_coro *s = cacs_create(fp_shared, NULL, 0);
  cacs_join(p);
  cacs_join(s);
  int ok1 = private_mode == FE_UPWARD, ok2 = shared_mode_seen == FE_TONEAREST;
  EXPECT(ok1 && ok2 && fegetround() == FE_TONEAREST);
  printf("fpenv: private %s, shared %s\n", ok1 ? "ok" : "WRONG",
         ok2 ? "ok" : "WRONG");
}

// --- 5. API ----------------------------------------------------------------------

static cacs_coro *seen_self;
static void api_entry(void *p) {
  seen_self = cacs_self();
  EXPECT(cacs_join(cacs_self()) == -1);
  EXPECT(!cacs_is_main(cacs_self()));
  *(int *)p = 1;
  cacs_exit();
  *(int *)p = 2; // never reached
}
static void test_api(void) {
  int flag = 0;
  cacs_yield(); // nothing else to run: returns at once
  EXPECT(cacs_is_main(cacs_self()));
  EXPECT(strcmp(cacs_name(cacs_self()), "main") == 0);
  cacs_coro *c = cacs_create(api_entry, &flag, 0);
  EXPECT(strncmp(cacs_name(c), "coro#", 5) == 0);
  cacs_set_name(c, "worker");
  EXPECT(strcmp(cacs_name(c), "worker") == 0);
  EXPECT(!cacs_done(c));
  cacs_yield();
  EXPECT(seen_self == c && cacs_done(c) && flag == 1);
  EXPECT(cacs_join(c) == 0);
  EXPECT(cacs_join(cacs_self()) == -1);
  printf("api %s\n", failures ? "WRONG" : "ok");
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  long m = argc > 2 ? atol(argv[2]) : 1000;
  test_order(n);
  test_mass(m);
  test_threads();
  test_fpenv();
  test_api();
  cacs_stack_pool_trim();
  if (failures)
    return 1;
  printf("PASS\n");
  return 0;
}
