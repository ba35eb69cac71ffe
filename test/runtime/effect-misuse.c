// Misuse of effect coroutines aborts with a message naming it: an effect
// with no handler and no default handler, and a coroutine resumed while it
// runs (it, or one it resumed, is the caller), and effects of two
// coroutines of the scheduler that interleave (an effect coroutine waits in
// cacs_yield while main resumes another, or performs an effect that the
// waiting chain handles, or one it does not); an effect coroutine that
// overflows its stack is reported by its name, which is made up only then
// (effect.c keeps none). (effect-aarch64.c: the same on AArch64.)
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: not --crash %t unhandled 2>&1 | FileCheck %s --check-prefix=UNHANDLED
// RUN: not --crash %t resume-running 2>&1 | FileCheck %s --check-prefix=RUNNING
// RUN: not --crash %t resume-done 2>&1 | FileCheck %s --check-prefix=DONE
// RUN: not --crash %t interleave 2>&1 | FileCheck %s --check-prefix=INTERLEAVE
// RUN: not --crash %t interleave-perform 2>&1 | FileCheck %s --check-prefix=INTERLEAVE-PERFORM
// RUN: not --crash %t interleave-perform-unhandled 2>&1 | FileCheck %s --check-prefix=INTERLEAVE-PERFORM
// RUN: ulimit -c 0; not --crash %t overflow 2>&1 | FileCheck %s --check-prefix=OVERFLOW
//
// UNHANDLED: before
// UNHANDLED-NEXT: cacs: effect 'oops' performed with no handler for it and no default handler (cacs_effect_set_default)
// RUNNING: cacs: cacs_effect_resume('effect#1'): the coroutine is running: it, or a coroutine it resumed, is the caller
// DONE: cacs: cacs_effect_resume('effect#1'): the coroutine has returned
// INTERLEAVE-PERFORM: cacs: CACS_PERFORM: the effect coroutines of another coroutine of this thread are running (they wait in the scheduler); effects of two coroutines of one thread may not interleave
// OVERFLOW: cacs: stack overflow in coroutine 'effect#1' (id 1): fault at
// INTERLEAVE: cacs: cacs_effect_resume: the effect coroutines of another coroutine of this thread are running (they wait in the scheduler); effects of two coroutines of one thread may not interleave

#include "cacs/coro.h"
#include "cacs/effect.h"

#include <stdio.h>
#include <string.h>

CACS_EFFECT(oops, int, int);
CACS_EFFECT(other, int, int);

static cacs_effect_coro *self;

__attribute__((noinline)) static int recurse(volatile char *prev, int n) {
  volatile char buf[256];
  buf[0] = (char)n;
  buf[255] = prev ? prev[0] : 0;
  return recurse(buf, n + 1) + buf[255]; // no tail call: grows forever
}

static void *body(void *arg) {
  if (!strcmp((const char *)arg, "unhandled")) {
    printf("before\n");
    fflush(stdout);
    CACS_PERFORM(oops, 1); // handled set is {other}: nobody handles it
  } else if (!strcmp((const char *)arg, "resume-running")) {
    cacs_effect_resume(self, CACS_HANDLES(other), NULL);
  } else if (!strcmp((const char *)arg, "overflow")) {
    recurse(NULL, 0);
  }
  return NULL;
}

static void *waits_in_scheduler(void *arg) {
  (void)arg;
  cacs_yield(); // back to main, this chain still running
  return NULL;
}

static void runs_effects(void *arg) {
  (void)arg;
  cacs_effect_coro *k = cacs_effect_create(waits_in_scheduler, NULL, 0);
  cacs_effect_resume(k, CACS_HANDLES(other), NULL);
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  if (!strncmp(argv[1], "interleave-perform", 18)) {
    cacs_coro *c = cacs_create(runs_effects, NULL, 0);
    cacs_yield(); // c's chain, which handles `other`, waits in cacs_yield
    if (argv[1][18])
      CACS_PERFORM(oops, 1); // aborts
    else
      CACS_PERFORM(other, 1); // aborts: not c's handler's to answer
    printf("not reached\n");
    cacs_join(c);
    return 0;
  }
  if (!strcmp(argv[1], "interleave")) {
    cacs_coro *c = cacs_create(runs_effects, NULL, 0);
    cacs_yield();
    cacs_effect_coro *k = cacs_effect_create(body, "", 0);
    cacs_effect_resume(k, CACS_HANDLES(other), NULL); // aborts
    cacs_join(c);
    return 0;
  }
  self = cacs_effect_create(body, argv[1], 0);
  cacs_effect_resume(self, CACS_HANDLES(other), NULL);
  if (!strcmp(argv[1], "resume-done"))
    cacs_effect_resume(self, CACS_HANDLES(other), NULL);
  printf("not reached\n");
  return 0;
}
