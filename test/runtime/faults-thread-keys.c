// Each thread-specific key libcacs makes (issue 36, part 2; found by
// scripts/faults): when pthread_key_create fails (a program that has used
// up PTHREAD_KEYS_MAX), the program aborts with a line naming the key, and
// never goes on with a key it does not have (the stack cache's and the
// effect table's went on and stored into whatever key 0 was; the
// scheduler's and the I/O loop's aborted without a word). The failing
// call is this program's own pthread_key_create, in front of libc's.
// The effect table's key is made only when an effect numbered past the
// thread block's entries (16) is handled, so the program handles 20 more.
// The fourth key is the I/O engine's: the epoll loop's, or on io_uring
// the ring's (the lines that reach it pin their engine, also when lit
// runs every I/O test per engine: --param cacs_io_all_engines=1).
// (Arch-neutral C: x86-64 only.)
//
// RUN: %clang -O1 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t
// RUN: env CACS_IO_ENGINE=epoll %t | FileCheck %s --check-prefix=NONE
// RUN: env FAIL_KEY=1 not --crash %t 2>&1 | FileCheck %s --check-prefix=SCHED
// RUN: env FAIL_KEY=2 not --crash %t 2>&1 | FileCheck %s --check-prefix=STACK
// RUN: env FAIL_KEY=3 not --crash %t 2>&1 | FileCheck %s --check-prefix=EFFECT
// RUN: env CACS_IO_ENGINE=epoll FAIL_KEY=4 not --crash %t 2>&1 | FileCheck %s --check-prefix=IO
// RUN: %if io-uring %{ env CACS_IO_ENGINE=uring %t | FileCheck %s --check-prefix=NONE %}
// RUN: %if io-uring %{ env CACS_IO_ENGINE=uring FAIL_KEY=4 not --crash %t 2>&1 | FileCheck %s --check-prefix=URING %}
//
// NONE: keys made: 4
// NONE-NEXT: PASS
// SCHED: cacs: no thread-specific key for the scheduler's thread exit: Resource temporarily unavailable
// STACK: cacs: no thread-specific key for the stack cache's thread exit: Resource temporarily unavailable
// EFFECT: cacs: no thread-specific key for the effect handler table: Resource temporarily unavailable
// IO: cacs: no thread-specific key for the I/O loop's thread exit: Resource temporarily unavailable
// URING: cacs: no thread-specific key for the io_uring engine's thread exit: Resource temporarily unavailable

#define _GNU_SOURCE 1
#include "cacs/coro.h"
#include "cacs/effect.h"
#include "cacs/io.h"

#include "Inputs/effect-many.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int calls, fail_at;

// libcacs's pthread_key_create resolves to this one (the program's own).
int pthread_key_create(pthread_key_t *key, void (*dtor)(void *)) {
  static int (*real)(pthread_key_t *, void (*)(void *));
  if (!real)
    real = (int (*)(pthread_key_t *, void (*)(void *)))dlsym(
        RTLD_NEXT, "pthread_key_create");
  if (++calls == fail_at)
    return EAGAIN;
  return real(key, dtor);
}

CACS_EFFECT(ask, int, int);
static void *asker(void *arg) { return (void *)(long)CACS_PERFORM(ask, 1); }
static void sleeper(void *arg) { cacs_sleep(100); }
static void *returns(void *arg) { return arg; }
CACS_EFFECTS_10(m0);
CACS_EFFECTS_10(m1);
static cacs_effect *many[] = {CACS_EFFECTS_10_ADDRS(m0),
                              CACS_EFFECTS_10_ADDRS(m1), NULL};

int main(void) {
  const char *f = getenv("FAIL_KEY");
  fail_at = f ? atoi(f) : 0;
  // The order of the keys: the scheduler's (first wait), the stack
  // cache's (first stack), the effect table's, the I/O engine's.
  cacs_sleep(0);
  cacs_coro *c = cacs_create(sleeper, NULL, 0);
  cacs_join(c);
  cacs_effect_coro *k = cacs_effect_create(asker, NULL, 0);
  int one = 1;
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(ask), NULL);
  while (q.effect)
    q = cacs_effect_resume(k, CACS_HANDLES(ask), &one);
  cacs_effect_destroy(k);
  k = cacs_effect_create(returns, NULL, 0); // numbers them: ids 2..21
  cacs_effect_resume(k, many, NULL);
  cacs_effect_destroy(k);
  int p[2];
  char ch;
  if (pipe(p) != 0 || cacs_read(p[0], &ch, 1, 1000) != -1 ||
      errno != ETIMEDOUT)
    return 1;
  printf("keys made: %d\n", calls);
  printf(calls == 4 ? "PASS\n" : "FAIL\n");
  return 0;
}
