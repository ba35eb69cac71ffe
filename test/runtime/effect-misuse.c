// Misuse of effect coroutines aborts with a message naming it: an effect
// with no handler and no default handler, and a coroutine resumed while it
// runs (it, or one it resumed, is the caller). (effect-aarch64.c: the same
// on AArch64.)
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: not --crash %t unhandled 2>&1 | FileCheck %s --check-prefix=UNHANDLED
// RUN: not --crash %t resume-running 2>&1 | FileCheck %s --check-prefix=RUNNING
// RUN: not --crash %t resume-done 2>&1 | FileCheck %s --check-prefix=DONE
//
// UNHANDLED: before
// UNHANDLED-NEXT: cacs: effect 'oops' performed with no handler for it and no default handler (cacs_effect_set_default)
// RUNNING: cacs: cacs_effect_resume('effect#1'): the coroutine is running: it, or a coroutine it resumed, is the caller
// DONE: cacs: cacs_effect_resume('effect#1'): the coroutine has returned

#include "cacs/effect.h"

#include <stdio.h>
#include <string.h>

CACS_EFFECT(oops, int, int);
CACS_EFFECT(other, int, int);

static cacs_effect_coro *self;

static void *body(void *arg) {
  if (!strcmp((const char *)arg, "unhandled")) {
    printf("before\n");
    fflush(stdout);
    CACS_PERFORM(oops, 1); // handled set is {other}: nobody handles it
  } else if (!strcmp((const char *)arg, "resume-running")) {
    cacs_effect_resume(self, CACS_HANDLES(other), NULL);
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  self = cacs_effect_create(body, argv[1], 0);
  cacs_effect_resume(self, CACS_HANDLES(other), NULL);
  if (!strcmp(argv[1], "resume-done"))
    cacs_effect_resume(self, CACS_HANDLES(other), NULL);
  printf("not reached\n");
  return 0;
}
