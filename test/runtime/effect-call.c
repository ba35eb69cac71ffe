// Call handlers (cacs_effect_resume_with, a tail-resumptive handler): a
// perform of an effect that the resume pairs with a function runs the
// function on the performer's stack and returns its result, with no
// switch, as if the handler had received the request and resumed at once
// with the same set. Each case checks that meaning against the switch
// version where they can differ:
//   calls      get/put as calls: the resume comes back only at the end
//   mixed      calls beside effects handled by requests, on one coroutine
//   nested     a call found over 5 handlers of another effect, whose
//              requests still switch
//   order      a call that performs: its effect goes to the handlers above
//              the call's coroutine (not to one between it and the
//              performer), in the same order of events as the switch
//              version's
//   calls2     a call that performs an effect handled by a call above
//   resume     a call that runs a generator of its own (the table's
//              segment settles and comes back), then the performer's chain
//              still handles its effects
//   default    a call that performs an effect only an inner coroutine
//              handles: the default handler, as from the handler's code
//   throw      a call that performs an effect whose handler destroys the
//              call's handler coroutine: the call's coroutine is then
//              abandoned, and destroyed (its stacks released); effects work
//              on afterwards
//   sync       a call-handled perform inside a sync block runs (no switch)
//   pool       the calls inside a pool coroutine
// An argument naming a case runs that one alone. Modes that abort:
// resume-in-call (a call resumes its own coroutine),
// resume-abandoned (a resume of the coroutine whose call was abandoned),
// sync-switch (a perform inside a block of an effect the same coroutine
// handles by a request: the block's abort).
//
// RUN: %clang -O0 -fno-sync-block-check -I%cacs_include %s %cacs_rt_x86_64 \
// RUN:   -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fno-sync-block-check -I%cacs_include %s %cacs_rt_x86_64 \
// RUN:   -o %t2 && %t2 | FileCheck %s
// RUN: not --crash %t2 resume-in-call 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RUNNING
// RUN: not --crash %t2 resume-abandoned 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ABANDONED
// RUN: not --crash %t2 sync-switch 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: %stock_clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %ts \
// RUN:   && %ts | FileCheck %s
// (effect-aarch64.c runs it on AArch64, effect-sanitizers.c under ASan,
// TSan and valgrind.)
//
// CHECK: calls: ok
// CHECK-NEXT: mixed: ok
// CHECK-NEXT: nested: ok
// CHECK-NEXT: order: ok
// CHECK-NEXT: calls2: ok
// CHECK-NEXT: resume: ok
// CHECK-NEXT: default: ok
// CHECK-NEXT: throw: ok
// CHECK-NEXT: sync: ok
// CHECK-NEXT: pool: ok
// CHECK-NEXT: PASS
// RUNNING: cacs: cacs_effect_resume('effect#{{[0-9]+}}'): the coroutine is
// RUNNING-SAME: running
// ABANDONED: throw: ok
// ABANDONED-NEXT: cacs: cacs_effect_resume('effect#{{[0-9]+}}'): its call
// ABANDONED-SAME: handler was abandoned
// SYNC: cacs: CACS_PERFORM of an effect handled outside the block inside
// SYNC-SAME: the sync block at {{.*}}effect-call.c

#include "cacs/effect.h"
#include "cacs/pool.h"
#include "cacs/syncblock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c)                                                               \
  do {                                                                         \
    if (!(c)) {                                                                \
      printf("FAIL line %d: %s\n", __LINE__, #c);                              \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

CACS_EFFECT(get, int, long);
CACS_EFFECT(put, long, int);
CACS_EFFECT(ask, int, int);
CACS_EFFECT(log, int, int);
CACS_EFFECT(note, int, int);
CACS_EFFECT(yld, int, int);
CACS_EFFECT(other, int, int);
CACS_EFFECT(dfl, int, int);
CACS_EFFECT(fail, int, int);

static const void *get_fn(void *payload, void *env) {
  (void)payload;
  return env; // &state
}
static const void *put_fn(void *payload, void *env) {
  *(long *)env = *(long *)payload;
  return NULL;
}

// --- calls ------------------------------------------------------------------

static void *stateful(void *arg) {
  for (long i = 0; i < (long)arg; ++i)
    CACS_PERFORM(put, CACS_PERFORM(get, 0) + 1);
  return (void *)CACS_PERFORM(get, 0);
}

static long run_calls(long from, long n) {
  long state = from;
  cacs_effect_coro *k = cacs_effect_create(stateful, (void *)n, 0);
  cacs_effect_request q =
      cacs_effect_resume_with(k, NULL,
                              CACS_CALLS(CACS_CALL(get, get_fn, &state),
                                         CACS_CALL(put, put_fn, &state)),
                              NULL);
  CHECK(q.effect == NULL); // no request: every perform was a call
  CHECK((long)q.payload == state);
  cacs_effect_destroy(k);
  return state;
}

static void test_calls(void) {
  CHECK(run_calls(100, 10) == 110);
  CHECK(run_calls(0, 1000) == 1000);
  printf("calls: ok\n");
}

// --- mixed ------------------------------------------------------------------

static void *mixed_body(void *arg) {
  (void)arg;
  for (int i = 0; i < 5; ++i) {
    long v = CACS_PERFORM(get, 0);
    CACS_PERFORM(yld, (int)v);
    CACS_PERFORM(put, v + 2);
  }
  return NULL;
}

static void test_mixed(void) {
  long state = 0;
  int seen[8], n = 0;
  cacs_effect_coro *k = cacs_effect_create(mixed_body, NULL, 0);
  const cacs_effect_call *calls = CACS_CALLS(CACS_CALL(get, get_fn, &state),
                                             CACS_CALL(put, put_fn, &state));
  cacs_effect_request q =
      cacs_effect_resume_with(k, CACS_HANDLES(yld), calls, NULL);
  while (q.effect) {
    CHECK(q.effect == &CACS_EFFECT_OF(yld) && n < 8);
    seen[n++] = *(int *)q.payload;
    q = cacs_effect_resume_with(k, CACS_HANDLES(yld), calls, NULL);
  }
  CHECK(n == 5 && state == 10);
  for (int i = 0; i < 5; ++i)
    CHECK(seen[i] == 2 * i);
  cacs_effect_destroy(k);
  printf("mixed: ok\n");
}

// --- nested -----------------------------------------------------------------

static void *level_body(void *arg) {
  int below = (int)(long)arg;
  if (below == 0) { // the performer
    long sum = 0;
    for (int i = 0; i < 4; ++i) {
      CACS_PERFORM(put, CACS_PERFORM(get, 0) + i);
      sum += CACS_PERFORM(other, i); // a request to the level above
    }
    return (void *)sum;
  }
  cacs_effect_coro *k =
      cacs_effect_create(level_body, (void *)(long)(below - 1), 0);
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(other), NULL);
  while (q.effect) {
    CHECK(q.effect == &CACS_EFFECT_OF(other));
    int r = *(int *)q.payload * 10;
    q = cacs_effect_resume(k, CACS_HANDLES(other), &r);
  }
  cacs_effect_destroy(k);
  return q.payload;
}

static void test_nested(void) {
  long state = 7;
  cacs_effect_coro *k = cacs_effect_create(level_body, (void *)5L, 0);
  cacs_effect_request q =
      cacs_effect_resume_with(k, NULL,
                              CACS_CALLS(CACS_CALL(get, get_fn, &state),
                                         CACS_CALL(put, put_fn, &state)),
                              NULL);
  CHECK(q.effect == NULL && (long)q.payload == 60 && state == 13);
  cacs_effect_destroy(k);
  printf("nested: ok\n");
}

// --- order ------------------------------------------------------------------
// main handles log and note (h's resume); h's body handles ask, by a call or
// by requests (mode); k's body runs an inner coroutine m that handles note;
// m performs ask, whose handling performs note and log: both go to main.

static char trace[512];
static void tr(const char *what, int v) {
  size_t n = strlen(trace);
  snprintf(trace + n, sizeof trace - n, "%s%d ", what, v);
}

static int ask_logic(int x) {
  tr("a", x);
  int y = CACS_PERFORM(note, x);
  int z = CACS_PERFORM(log, x);
  tr("b", y + z);
  return x + y + z;
}
static const void *ask_fn(void *payload, void *env) {
  *(int *)env = ask_logic(*(int *)payload);
  return env;
}

static void *m_body(void *arg) {
  (void)arg;
  int sum = 0;
  for (int i = 1; i <= 3; ++i) {
    tr("p", i);
    sum += CACS_PERFORM(ask, i);
    tr("r", sum);
  }
  return (void *)(long)sum;
}
static void *k_body(void *arg) {
  (void)arg;
  cacs_effect_coro *m = cacs_effect_create(m_body, NULL, 0);
  cacs_effect_request q = cacs_effect_resume(m, CACS_HANDLES(note), NULL);
  while (q.effect) { // never: the notes go over m's handler
    tr("WRONG", *(int *)q.payload);
    int zero = 0;
    q = cacs_effect_resume(m, CACS_HANDLES(note), &zero);
  }
  cacs_effect_destroy(m);
  return q.payload;
}
static void *h_body(void *arg) {
  int by_call = (int)(long)arg, slot;
  cacs_effect_coro *k = cacs_effect_create(k_body, NULL, 0);
  cacs_effect_request q;
  if (by_call) {
    q = cacs_effect_resume_with(
        k, NULL, CACS_CALLS(CACS_CALL(ask, ask_fn, &slot)), NULL);
  } else {
    q = cacs_effect_resume(k, CACS_HANDLES(ask), NULL);
    while (q.effect) {
      slot = ask_logic(*(int *)q.payload);
      q = cacs_effect_resume(k, CACS_HANDLES(ask), &slot);
    }
  }
  CHECK(q.effect == NULL);
  cacs_effect_destroy(k);
  return q.payload;
}

static long run_order(int by_call) {
  trace[0] = 0;
  cacs_effect_coro *h = cacs_effect_create(h_body, (void *)(long)by_call, 0);
  cacs_effect_request q = cacs_effect_resume(h, CACS_HANDLES(log, note), NULL);
  while (q.effect) {
    int x = *(int *)q.payload, r;
    if (q.effect == &CACS_EFFECT_OF(log)) {
      tr("L", x);
      r = 100 * x;
    } else {
      tr("N", x);
      r = 1000 * x;
    }
    q = cacs_effect_resume(h, CACS_HANDLES(log, note), &r);
  }
  cacs_effect_destroy(h);
  return (long)q.payload;
}

static void test_order(void) {
  long by_switch = run_order(0);
  char expect[512];
  strcpy(expect, trace);
  long by_call = run_order(1);
  if (strcmp(expect, trace) != 0)
    printf("switch: %s\ncall:   %s\n", expect, trace);
  CHECK(strcmp(expect, trace) == 0);
  CHECK(by_call == by_switch && by_call == 6 * 1101);
  CHECK(strstr(trace, "N1 L1 b1100") && !strstr(trace, "WRONG"));
  printf("order: ok\n");
}

// --- calls2 -----------------------------------------------------------------

static const void *ask_get_fn(void *payload, void *env) {
  *(int *)env = *(int *)payload + (int)CACS_PERFORM(get, 0);
  return env;
}
static void *asks(void *arg) {
  (void)arg;
  long sum = 0;
  for (int i = 0; i < 3; ++i)
    sum += CACS_PERFORM(ask, i);
  return (void *)sum;
}
static void *calls2_h(void *arg) {
  (void)arg;
  int slot;
  cacs_effect_coro *k = cacs_effect_create(asks, NULL, 0);
  cacs_effect_request q = cacs_effect_resume_with(
      k, NULL, CACS_CALLS(CACS_CALL(ask, ask_get_fn, &slot)), NULL);
  CHECK(q.effect == NULL);
  cacs_effect_destroy(k);
  return q.payload;
}

static void test_calls2(void) {
  long state = 40;
  cacs_effect_coro *h = cacs_effect_create(calls2_h, NULL, 0);
  cacs_effect_request q = cacs_effect_resume_with(
      h, NULL, CACS_CALLS(CACS_CALL(get, get_fn, &state)), NULL);
  CHECK(q.effect == NULL && (long)q.payload == 123);
  cacs_effect_destroy(h);
  printf("calls2: ok\n");
}

// --- resume -----------------------------------------------------------------

static void *gen_body(void *arg) {
  (void)arg;
  for (int i = 1; i <= 3; ++i)
    CACS_PERFORM(yld, i);
  return NULL;
}
static const void *ask_gen_fn(void *payload, void *env) {
  int sum = *(int *)payload;
  cacs_effect_coro *g = cacs_effect_create(gen_body, NULL, 0);
  for (cacs_effect_request q = cacs_effect_resume(g, CACS_HANDLES(yld), NULL);
       q.effect; q = cacs_effect_resume(g, CACS_HANDLES(yld), NULL))
    sum += *(int *)q.payload;
  cacs_effect_destroy(g);
  *(int *)env = sum;
  return env;
}
static void *asks_notes(void *arg) { // p, under k
  (void)arg;
  long sum = 0;
  for (int i = 0; i < 3; ++i) {
    sum += CACS_PERFORM(ask, i);   // a call that resumes g
    sum += CACS_PERFORM(note, i);  // to k's body: p's resumer
    sum += CACS_PERFORM(other, i); // to main: k's resumer
  }
  return (void *)sum;
}
static void *resume_k(void *arg) {
  (void)arg;
  cacs_effect_coro *p = cacs_effect_create(asks_notes, NULL, 0);
  cacs_effect_request q = cacs_effect_resume(p, CACS_HANDLES(note), NULL);
  while (q.effect) {
    CHECK(q.effect == &CACS_EFFECT_OF(note));
    int r = 10;
    q = cacs_effect_resume(p, CACS_HANDLES(note), &r);
  }
  cacs_effect_destroy(p);
  return q.payload;
}

static void test_resume(void) {
  int slot, others = 0;
  cacs_effect_coro *k = cacs_effect_create(resume_k, NULL, 0);
  const cacs_effect_call *calls = CACS_CALLS(CACS_CALL(ask, ask_gen_fn, &slot));
  cacs_effect_request q =
      cacs_effect_resume_with(k, CACS_HANDLES(other), calls, NULL);
  while (q.effect) {
    CHECK(q.effect == &CACS_EFFECT_OF(other));
    int r = 100;
    ++others;
    q = cacs_effect_resume_with(k, CACS_HANDLES(other), calls, &r);
  }
  // asks: (0+6) + (1+6) + (2+6) = 21; notes 30; others 300.
  CHECK(others == 3 && (long)q.payload == 351);
  cacs_effect_destroy(k);
  printf("resume: ok\n");
}

// --- default ----------------------------------------------------------------

static int defaults;
static const void *dfl_default(void *payload) {
  static int r;
  ++defaults;
  r = *(int *)payload + 1;
  return &r;
}
static const void *ask_dfl_fn(void *payload, void *env) {
  *(int *)env = (int)CACS_PERFORM(dfl, *(int *)payload);
  return env;
}
static void *asks_once(void *arg) {
  (void)arg;
  return (void *)(long)CACS_PERFORM(ask, 41);
}
static void *dfl_k(void *arg) { // handles dfl around the performer
  (void)arg;
  cacs_effect_coro *p = cacs_effect_create(asks_once, NULL, 0);
  cacs_effect_request q = cacs_effect_resume(p, CACS_HANDLES(dfl), NULL);
  CHECK(q.effect == NULL); // the call's dfl does not come here
  cacs_effect_destroy(p);
  return q.payload;
}

static void test_default(void) {
  int slot;
  cacs_effect_set_default(&CACS_EFFECT_OF(dfl), dfl_default);
  cacs_effect_coro *k = cacs_effect_create(dfl_k, NULL, 0);
  cacs_effect_request q = cacs_effect_resume_with(
      k, NULL, CACS_CALLS(CACS_CALL(ask, ask_dfl_fn, &slot)), NULL);
  CHECK(q.effect == NULL && (long)q.payload == 42 && defaults == 1);
  cacs_effect_destroy(k);
  cacs_effect_set_default(&CACS_EFFECT_OF(dfl), NULL);
  printf("default: ok\n");
}

// --- throw ------------------------------------------------------------------

static cacs_effect_coro *thrown_k;
static const void *ask_fail_fn(void *payload, void *env) {
  (void)env;
  CACS_PERFORM(fail, *(int *)payload); // never returns
  abort();
}
static void *throw_h(void *arg) {
  (void)arg;
  thrown_k = cacs_effect_create(dfl_k, NULL, 0); // k: p = asks_once under it
  cacs_effect_resume_with(thrown_k, NULL,
                          CACS_CALLS(CACS_CALL(ask, ask_fail_fn, NULL)), NULL);
  abort(); // never: the call does not return
}

static void test_throw(int resume_after) {
  cacs_effect_coro *h = cacs_effect_create(throw_h, NULL, 0);
  cacs_effect_request q = cacs_effect_resume(h, CACS_HANDLES(fail), NULL);
  CHECK(q.effect == &CACS_EFFECT_OF(fail) && *(int *)q.payload == 41);
  cacs_effect_destroy(h); // the throw: h's stack released
  CHECK(run_calls(5, 3) == 8);
  printf("throw: ok\n");
  fflush(stdout);
  if (resume_after)
    cacs_effect_resume(thrown_k, CACS_HANDLES(ask), NULL);
  cacs_effect_destroy(thrown_k); // its performer's stack too
  CHECK(run_calls(1, 2) == 3);
}

// --- sync -------------------------------------------------------------------

static void *sync_body(void *arg) {
  long v = 0;
  CACS_SYNC {
    v = CACS_PERFORM(get, 0);
    CACS_PERFORM(put, v + 1);
    if (arg)
      CACS_PERFORM(yld, 0); // a request: the block's abort
  }
  return (void *)v;
}

static void test_sync(int with_switch) {
  long state = 9;
  cacs_effect_coro *k =
      cacs_effect_create(sync_body, (void *)(long)with_switch, 0);
  cacs_effect_request q =
      cacs_effect_resume_with(k, CACS_HANDLES(yld),
                              CACS_CALLS(CACS_CALL(get, get_fn, &state),
                                         CACS_CALL(put, put_fn, &state)),
                              NULL);
  CHECK(q.effect == NULL && (long)q.payload == 9 && state == 10);
  cacs_effect_destroy(k);
  printf("sync: ok\n");
}

// --- pool -------------------------------------------------------------------

static void pool_entry(void *arg) {
  long *out = arg;
  for (int i = 0; i < 3; ++i)
    out[i] = run_calls(i, 100);
}

static void test_pool(void) {
  long out[2][3] = {{0}};
  cacs_pool *pool = cacs_pool_create(2);
  CHECK(pool);
  CHECK(cacs_pool_spawn_detached(pool, pool_entry, out[0]) == 0);
  CHECK(cacs_pool_spawn_detached(pool, pool_entry, out[1]) == 0);
  CHECK(cacs_pool_destroy(pool) == 0);
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 3; ++i)
      CHECK(out[j][i] == i + 100);
  printf("pool: ok\n");
}

static void test_throw0(void) { test_throw(0); }
static void test_sync0(void) { test_sync(0); }

// --- misuse -----------------------------------------------------------------

static cacs_effect_coro *self_k;
// The plain resume, with the set k was resumed with: not the fast path of
// a resume that answers k's request (pend is k while the call runs).
static const void *resume_self_fn(void *payload, void *env) {
  (void)payload;
  cacs_effect_resume(self_k, CACS_HANDLES(yld), NULL);
  return env;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (!strcmp(mode, "resume-in-call")) {
    int slot;
    self_k = cacs_effect_create(asks_once, NULL, 0);
    cacs_effect_resume_with(self_k, CACS_HANDLES(yld),
                            CACS_CALLS(CACS_CALL(ask, resume_self_fn, &slot)),
                            NULL);
    return 0;
  }
  if (!strcmp(mode, "resume-abandoned")) {
    test_throw(1);
    return 0;
  }
  if (!strcmp(mode, "sync-switch")) {
    test_sync(1);
    return 0;
  }
  static const struct {
    const char *name;
    void (*run)(void);
  } cases[] = {{"calls", test_calls},     {"mixed", test_mixed},
               {"nested", test_nested},   {"order", test_order},
               {"calls2", test_calls2},   {"resume", test_resume},
               {"default", test_default}, {"throw", test_throw0},
               {"sync", test_sync0},      {"pool", test_pool}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    if (!*mode || !strcmp(mode, cases[i].name)) // one case by its name
      cases[i].run();
  printf("PASS\n");
  return 0;
}
