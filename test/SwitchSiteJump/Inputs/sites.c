// A program whose yields, performs and resumes are the sites
// -fswitch-site-jumps lowers, for the tests of the hazards of the lowering
// (docs/hazards.md, "Jump-entered switches"): two coroutines of different
// functions taking turns with values of every register class live across
// each yield, a yield two calls deep, two identical coroutine functions
// (which identical code folding may merge), mutable state by effects and a
// generator. It prints what it computed; the tests compare that with the
// same program built by stock clang -O0.
//
// -DSITES_DSO: only the code with the sites, exporting sites_run (for a
// shared object); -DSITES_MAIN: only main, which calls sites_run, found
// at link time or, with -DSITES_DLOPEN=<path>, by dlopen with the mode
// SITES_DLOPEN_MODE. Neither: the whole program.

#include "cacs/coro.h"
#include "cacs/effect.h"

#include <stdint.h>
#include <stdio.h>

#if !defined(SITES_DSO) && !defined(SITES_MAIN)
#define SITES_DSO
#define SITES_MAIN
#endif

#ifdef SITES_DSO
CACS_EFFECT(get, int, int);
CACS_EFFECT(put, int, int);
CACS_EFFECT(next, long, int);

#define ROUNDS 500

static uint64_t log_[4];
static double fp_;

__attribute__((noinline)) void sites_ping(void *arg) {
  uint64_t v[7];
  for (int k = 0; k < 7; ++k)
    v[k] = (uintptr_t)arg * (uint64_t)(k + 2) + (uint64_t)k;
  double x = 0.5;
  long double y = 1.25L;
  for (uint64_t i = 0; i < ROUNDS; ++i) {
    for (int k = 0; k < 7; ++k)
      v[k] = v[k] * (uint64_t)(2 * k + 3) + (v[(k + 6) % 7] >> 2) + i;
    x = x * 1.0001 + (double)(i & 7);
    y = y * 1.0002L + (long double)(i & 3);
    cacs_yield();
    log_[0] = log_[0] * 31 + (v[0] ^ v[1] ^ v[2] ^ v[3] ^ v[4] ^ v[5] ^ v[6]);
  }
  fp_ += x + (double)y;
}

__attribute__((noinline)) void sites_level2(uint64_t *p) {
  uint64_t v = *p * 7 + 1;
  cacs_yield();
  *p = v ^ (*p >> 3);
}
__attribute__((noinline)) void sites_level1(uint64_t *p) {
  uint64_t w = *p + 5;
  sites_level2(p);
  *p += w;
}

__attribute__((noinline)) void sites_pong(void *arg) {
  uint64_t a = (uintptr_t)arg, b = a + 2;
  double x = 2.0;
  for (uint64_t i = 0; i < ROUNDS; ++i) {
    a = a * 3 + i;
    b += a;
    x = x * 0.9999 + (double)(i % 5);
    sites_level1(&a);
    log_[1] = log_[1] * 37 + (a + b);
  }
  fp_ += x;
}

// Identical: -Wl,--icf=all folds them into one.
__attribute__((noinline)) void sites_twin_a(void *arg) {
  uint64_t *slot = arg, a = 3;
  for (int i = 0; i < 50; ++i) {
    a = a * 13 + (uint64_t)i;
    cacs_yield();
    *slot = *slot * 3 + a;
  }
}
__attribute__((noinline)) void sites_twin_b(void *arg) {
  uint64_t *slot = arg, a = 3;
  for (int i = 0; i < 50; ++i) {
    a = a * 13 + (uint64_t)i;
    cacs_yield();
    *slot = *slot * 3 + a;
  }
}

__attribute__((noinline)) static void *sites_counter(void *arg) {
  long n = (long)arg;
  for (long i = 0; i < n; i++) {
    int v = CACS_PERFORM(get, 0);
    CACS_PERFORM(put, v * 3 + (int)i);
  }
  return (void *)(long)CACS_PERFORM(get, 0);
}

__attribute__((noinline)) static void *sites_numbers(void *arg) {
  for (long x = (long)arg; x != 1; x = x % 2 ? 3 * x + 1 : x / 2)
    CACS_PERFORM(next, x);
  return NULL;
}

__attribute__((visibility("default"))) long sites_run(void) {
  cacs_coro *c[4];
  c[0] = cacs_create(sites_ping, (void *)1, 0);
  c[1] = cacs_create(sites_pong, (void *)2, 0);
  c[2] = cacs_create(sites_twin_a, &log_[2], 0);
  c[3] = cacs_create(sites_twin_b, &log_[3], 0);
  for (int i = 0; i < 4; ++i)
    cacs_join(c[i]);
  printf("yields %llu %llu %llu %llu %.6f\n", (unsigned long long)log_[0],
         (unsigned long long)log_[1], (unsigned long long)log_[2],
         (unsigned long long)log_[3], fp_);

  int cell = 1;
  cacs_effect_coro *k = cacs_effect_create(sites_counter, (void *)40, 0);
  cacs_effect_request r = cacs_effect_resume(k, CACS_HANDLES(get, put), NULL);
  while (r.effect) {
    const void *ans = &cell;
    if (r.effect == &CACS_EFFECT_OF(put)) {
      cell = *(int *)r.payload % 100003;
      ans = NULL;
    }
    r = cacs_effect_resume(k, CACS_HANDLES(get, put), ans);
  }
  long state = (long)r.payload;
  cacs_effect_destroy(k);

  // The Collatz sequence from 27, taken as a generator's values.
  cacs_effect_coro *g = cacs_effect_create(sites_numbers, (void *)27, 0);
  long sum = 0;
  int n = -1;
  do {
    r = cacs_effect_resume(g, CACS_HANDLES(next), NULL);
    if (r.effect)
      sum = (sum * 11 + *(long *)r.payload) % 1000003;
    n++;
  } while (r.effect);
  cacs_effect_destroy(g);
  printf("effects %ld, %d values, sum %ld\n", state, n, sum);
  return (long)((log_[0] ^ log_[1]) % 1000) + sum;
}
#endif

#ifdef SITES_MAIN
#ifdef SITES_DLOPEN
#include <dlfcn.h>
#define STR2(x) #x
#define STR(x) STR2(x)
int main(void) {
  void *h = dlopen(STR(SITES_DLOPEN), SITES_DLOPEN_MODE);
  if (!h) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  long (*run)(void) = (long (*)(void))dlsym(h, "sites_run");
  if (!run) {
    printf("dlsym: %s\n", dlerror());
    return 1;
  }
  printf("run %ld\n", run());
  return 0;
}
#else
long sites_run(void);
int main(void) {
  printf("run %ld\n", sites_run());
  return 0;
}
#endif
#endif
