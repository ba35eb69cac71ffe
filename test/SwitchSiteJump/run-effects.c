// Programs whose performs and resumes are entered by a jump
// (cacs__effect_perform_pn_jmp, cacs__effect_resume_pn_jmp) compute what
// stock clang -O0 computes, with call-entered ones mixed in: the *_call
// helpers are optnone, so their performs and resumes stay calls of
// cacs__effect_perform_pn and cacs__effect_resume_pn, and each entry
// resumes what the other suspended. Shapes: mutable state (get/put handled
// one up, from the first resume to the coroutine's return value), a perform
// handled 1 and 10 handlers up through a nest of ten handler coroutines, a
// generator by effects, a throw (the handler destroys the performer instead
// of resuming it, from a few frames deep), and call handlers (the perform's
// slow branch that calls on the performer's stack, then returns by a jump
// through the site's resume address; in calls[0] and calls[1], which have
// a path each in the jump entry, and through the rejoin branch of each).
// With -fswitch-site-jumps at -O2, with APN and with full LTO (the link
// lowers).
//
// RUN: %stock_clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t.ref
// RUN: %t.ref > %t.want
// RUN: %clang -O2 -fswitch-site-jumps -Rpass=switch-site-jump -Rpass-missed=switch-site-jump -I%cacs_include %s %cacs_rt_x86_64 -o %t.o2 2>%t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %t.o2 | diff %t.want -
// RUN: %clang -O3 -fauto-preserve-none -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t.apn
// RUN: %t.apn | diff %t.want -
// RUN: %clang -O2 -flto -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t.lto
// RUN: %t.lto | diff %t.want -

// REMARK-DAG: cacs_effect_perform is entered by a jump at this site
// REMARK-DAG: cacs_effect_resume is entered by a jump at this site
// REMARK-DAG: cacs_effect_perform stays a call: the function is optnone
// REMARK-DAG: cacs_effect_resume stays a call: the function is optnone

#include <cacs/effect.h>

#include <stdio.h>

CACS_EFFECT(get, int, int);
CACS_EFFECT(put, int, int);
CACS_EFFECT(next, long, int);
CACS_EFFECT(raise, int, int);
CACS_EFFECT(note, int, int);
CACS_EFFECT(l0, int, int);
CACS_EFFECT(l1, int, int);
CACS_EFFECT(l2, int, int);
CACS_EFFECT(l3, int, int);
CACS_EFFECT(l4, int, int);
CACS_EFFECT(l5, int, int);
CACS_EFFECT(l6, int, int);
CACS_EFFECT(l7, int, int);
CACS_EFFECT(l8, int, int);
CACS_EFFECT(l9, int, int);

#define OPTNONE __attribute__((optnone, noinline))

// The call-entered perform and resume.
OPTNONE static const void *perform_call(cacs_effect *e, void *payload) {
  return cacs_effect_perform(e, payload);
}
OPTNONE static cacs_effect_request
resume_call(cacs_effect_coro *k, cacs_effect *const *handled,
            const void *result) {
  return cacs_effect_resume(k, handled, result);
}
// Jump-entered where the calls are lowered.
static cacs_effect_request resume_any(int i, cacs_effect_coro *k,
                                      cacs_effect *const *handled,
                                      const void *result) {
  if (i % 3 == 1)
    return resume_call(k, handled, result);
  return cacs_effect_resume(k, handled, result);
}
static int perform_int(int i, cacs_effect *e, int payload) {
  const void *r = i % 4 == 2 ? perform_call(e, &payload)
                             : cacs_effect_perform(e, &payload);
  return r ? *(const int *)r : 0;
}

// State: get and put handled one up; the value at the end is returned.
static void *counter(void *arg) {
  long n = (long)arg;
  for (long i = 0; i < n; i++) {
    int v = perform_int((int)i, &CACS_EFFECT_OF(get), 0);
    perform_int((int)i + 1, &CACS_EFFECT_OF(put), v + 3);
  }
  return (void *)(long)CACS_PERFORM(get, 0);
}

static void state(void) {
  int cell = 7, out = 0, i = 0;
  cacs_effect_coro *k = cacs_effect_create(counter, (void *)50, 0);
  cacs_effect_request r = resume_any(i++, k, CACS_HANDLES(get, put), NULL);
  while (r.effect) {
    const void *res = NULL;
    if (r.effect == &CACS_EFFECT_OF(get)) {
      out = cell;
      res = &out;
    } else {
      cell = *(int *)r.payload;
    }
    r = resume_any(i++, k, CACS_HANDLES(get, put), res);
  }
  printf("state: returned %ld, cell %d, %d resumes\n", (long)r.payload, cell,
         i);
  cacs_effect_destroy(k);
}

// Ten handlers: level d runs level d + 1 handling l<d>; level 10 performs
// l9 (one up) and l0 (ten up). Each answer is payload * 10 + d.
static cacs_effect *const levels[10] = {
    &CACS_EFFECT_OF(l0), &CACS_EFFECT_OF(l1), &CACS_EFFECT_OF(l2),
    &CACS_EFFECT_OF(l3), &CACS_EFFECT_OF(l4), &CACS_EFFECT_OF(l5),
    &CACS_EFFECT_OF(l6), &CACS_EFFECT_OF(l7), &CACS_EFFECT_OF(l8),
    &CACS_EFFECT_OF(l9)};

static void *level(void *arg) {
  int d = (int)(long)arg;
  if (d == 10) {
    long sum = 0;
    for (int i = 0; i < 40; i++)
      sum = sum * 3 % 1000003 + perform_int(i, levels[i & 1 ? 9 : 0], i);
    return (void *)sum;
  }
  cacs_effect *const handled[2] = {levels[d], NULL};
  cacs_effect_coro *k = cacs_effect_create(level, (void *)(long)(d + 1), 0);
  int i = 0, answer = 0;
  cacs_effect_request r = resume_any(i++, k, handled, NULL);
  while (r.effect) {
    answer = *(int *)r.payload * 10 + d;
    r = resume_any(i++, k, handled, &answer);
  }
  cacs_effect_destroy(k);
  return r.payload;
}

static void nested(void) {
  printf("nested: %ld\n", (long)level(0));
}

// A generator by effects.
static void *numbers(void *arg) {
  long n = (long)arg, a = 0, b = 1;
  for (long i = 0; i < n; i++) {
    long t = a + b;
    a = b;
    b = t % 1000007;
    if (i % 5 == 3)
      perform_call(&CACS_EFFECT_OF(next), &a);
    else
      CACS_PERFORM(next, a);
  }
  return NULL;
}

static void generator(void) {
  cacs_effect_coro *k = cacs_effect_create(numbers, (void *)60, 0);
  long sum = 0;
  int i = 0;
  for (cacs_effect_request r = resume_any(i++, k, CACS_HANDLES(next), NULL);
       r.effect; r = resume_any(i++, k, CACS_HANDLES(next), NULL))
    sum = (sum * 7 + *(long *)r.payload) % 1000003;
  printf("generator: %d values, sum %ld, done %d\n", i - 1, sum,
         cacs_effect_done(k));
  cacs_effect_destroy(k);
}

// A throw from a few frames deep: never resumed, destroyed.
static int deep(int n, int via_call) {
  if (n == 0)
    return perform_int(via_call ? 2 : 0, &CACS_EFFECT_OF(raise), 42);
  return deep(n - 1, via_call) + 1;
}
static void *thrower(void *arg) {
  deep(5, (int)(long)arg);
  printf("not reached\n");
  return NULL;
}

static void throws(void) {
  for (int i = 0; i < 4; i++) {
    cacs_effect_coro *k = cacs_effect_create(thrower, (void *)(long)(i & 1), 0);
    cacs_effect_request r = resume_any(i, k, CACS_HANDLES(raise), NULL);
    printf("throw %d: raised %d, done %d\n", i, *(int *)r.payload,
           cacs_effect_done(k));
    cacs_effect_destroy(k);
  }
}

// Call handlers: put answered by a call on the performer's stack, get by a
// switch to the handler.
static const void *put_fn(void *payload, void *env) {
  *(int *)env += *(int *)payload;
  return env;
}
static void calls(void) {
  int cell = 1, out = 0, i = 0;
  cacs_effect_coro *k = cacs_effect_create(counter, (void *)30, 0);
  const cacs_effect_call *c = CACS_CALLS(CACS_CALL(put, put_fn, &cell));
  cacs_effect_request r =
      cacs_effect_resume_with(k, CACS_HANDLES(get), c, NULL);
  while (r.effect) {
    out = cell % 1000;
    i++;
    r = cacs_effect_resume_with(k, CACS_HANDLES(get), c, &out);
  }
  printf("calls: returned %ld, cell %d, %d gets\n", (long)r.payload, cell, i);
  cacs_effect_destroy(k);
}

// Both effects answered by calls, get in calls[0] and put in calls[1], as
// in bench/effect's callstate: the coroutine runs to its end in one
// resume.
static const void *get_fn(void *payload, void *env) {
  (void)payload;
  return env;
}
static const void *set_fn(void *payload, void *env) {
  *(int *)env = *(int *)payload % 1009;
  return NULL;
}
static void two_calls(void) {
  int cell = 5;
  cacs_effect_coro *k = cacs_effect_create(counter, (void *)400, 0);
  cacs_effect_request r = cacs_effect_resume_with(
      k, NULL,
      CACS_CALLS(CACS_CALL(get, get_fn, &cell), CACS_CALL(put, set_fn, &cell)),
      NULL);
  printf("two calls: returned %ld, cell %d, done %d\n", (long)r.payload, cell,
         !r.effect);
  cacs_effect_destroy(k);
}

// A call handler that switches: put's call performs `note`, which main
// handles, so the table changes under the call and the performer rejoins
// its segment in C before it returns (effect_x86_64.S's rejoin branch).
static const void *noting_put(void *payload, void *env) {
  *(int *)env += CACS_PERFORM(note, *(int *)payload);
  return env;
}
// arg: the count times 2, plus 1 to put the call in calls[1] (behind
// one of `next`, which counter never performs).
static void *middle(void *arg) {
  int cell = 0, out = 0, n = 0;
  long a = (long)arg;
  cacs_effect_coro *k = cacs_effect_create(counter, (void *)(a >> 1), 0);
  const cacs_effect_call *c =
      a & 1 ? CACS_CALLS(CACS_CALL(next, get_fn, &cell),
                         CACS_CALL(put, noting_put, &cell))
            : CACS_CALLS(CACS_CALL(put, noting_put, &cell));
  cacs_effect_request r =
      cacs_effect_resume_with(k, CACS_HANDLES(get), c, NULL);
  while (r.effect) {
    out = cell % 1000;
    n++;
    r = cacs_effect_resume_with(k, CACS_HANDLES(get), c, &out);
  }
  cacs_effect_destroy(k);
  return (void *)(long)(cell * 100 + n);
}
static void rejoin(long slot) {
  cacs_effect_coro *m = cacs_effect_create(middle, (void *)(40 + slot), 0);
  int notes = 0, answer = 0;
  cacs_effect_request r = resume_any(notes, m, CACS_HANDLES(note), NULL);
  while (r.effect) {
    answer = *(int *)r.payload % 7;
    r = resume_any(++notes, m, CACS_HANDLES(note), &answer);
  }
  printf("rejoin in calls[%ld]: %ld, %d notes\n", slot, (long)r.payload, notes);
  cacs_effect_destroy(m);
}

int main(void) {
  state();
  nested();
  generator();
  throws();
  calls();
  two_calls();
  rejoin(0);
  rejoin(1);
  return 0;
}
