// The edges of the fast round of perform + resume (lib/effect_x86_64.S,
// lib/effect_aarch64.S; lib/effect.c's fast paths where the assembly is
// off, and for every case it declines): each case below runs first
// as the fast round (a handler answering the request it just got, with the
// same set), then leaves it the way it names, and checks where the next
// request goes:
//   sets     a set of one widened to two, a set of two widened to three
//            with the same first two (its third effect must come to it),
//            then narrowed back (the third goes past it)
//   shallow  the same coroutine answered with a set without the effect it
//            keeps performing: the next one goes to the enclosing handler
//   forward  a perform handled two handlers up, past one of another
//            effect, then the inner handler's own effect, then one that
//            only a default handler takes; once, main runs a coroutine
//            of its own between a request and its answer (which then
//            installs the segment again)
//   nested   a handler loop inside an effect coroutine (the chain is not
//            empty at its resumes), whose performer's effect its own
//            handler forwards to main; the performer, continued by main's
//            answer, runs a coroutine of its own (its child: it must be
//            the chain's innermost), and main's last answer installs the
//            segment again
//   tail     main's handler of ea around mid, whose handler of eb runs in,
//            which performs ea (two up), and at times eb (one up): while in
//            runs, it is the chain's innermost, not mid (the coroutine main
//            resumes); so its performs suspend the segment mid .. in, which
//            a later operation must take off the table whole (else eb,
//            performed from outside, finds in, suspended, instead of its
//            default handler) and a destroy of mid must free whole (two
//            stacks back to the cache). Checked after a fast answer of
//            main's and after one that takes the slow path (following
//            another table operation)
//   ids      40 effects numbered in a row, across the end of the entries
//            that the thread's block holds (lib/effect.c, TOP_INLINE; the
//            rest are on the heap, their performs sent there by the
//            block's slot that is never set, effect_slot): for each
//            effect x and the next, y,
//            main handles x around mid, which handles y around in, which
//            performs x (two up), y (one up), x again
//   block    a handler that opens a sync block and answers inside it (the
//            perform comes back into the block: allowed), then outside
//   handover a request got by one coroutine of the scheduler and answered,
//            with the rest, by another while the first waits (the chain
//            is empty between them): the fast resume makes the answerer
//            the chain's owner, or the performer's next perform aborts
//   aside    a request got by one coroutine of the scheduler, whose chain
//            is then empty (it is the top handler), kept unanswered while
//            another coroutine of the scheduler, which runs no chain,
//            performs an effect only a default handler takes and runs a
//            coroutine to its end: neither is a foreign chain's (the
//            table's `cur` names the kept request's performer then, not
//            the chain's innermost: lib/effect.c); then the first
//            answers the rest, its segment installed again
//   sync-abort    a perform inside a block, handled outside it, after fast
//            rounds: aborts naming the block
//   foreign  another coroutine of the scheduler performs while a chain that
//            handles the effect waits in cacs_yield, after fast rounds:
//            aborts naming the misuse
//
// RUN: %clang -O0 -fno-sync-block-check -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fno-sync-block-check -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: not --crash %t2 sync-abort 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: not --crash %t2 foreign 2>&1 | FileCheck %s --check-prefix=FOREIGN
// RUN: %stock_clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %ts && %ts | FileCheck %s
// (effect-aarch64.c runs it on AArch64.)
//
// CHECK: sets: ok
// CHECK-NEXT: shallow: ok
// CHECK-NEXT: forward: ok
// CHECK-NEXT: nested: ok
// CHECK-NEXT: tail: ok
// CHECK-NEXT: ids: ok
// CHECK-NEXT: block: ok
// CHECK-NEXT: handover: ok
// CHECK-NEXT: aside: ok
// CHECK-NEXT: PASS
// SYNC: block at line [[L:[0-9]+]]
// SYNC-NEXT: cacs: CACS_PERFORM of an effect handled outside the block inside the sync block at {{.*}}effect-fast.c:[[L]]: no other
// FOREIGN: rounds: ok
// FOREIGN-NEXT: cacs: CACS_PERFORM: the effect coroutines of another coroutine of this thread are running

#include "cacs/coro.h"
#include "cacs/effect.h"
#include "cacs/stack.h"
#include "cacs/syncblock.h"
#include "Inputs/effect-many.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

CACS_EFFECT(ea, int, int);
CACS_EFFECT(eb, int, int);
CACS_EFFECT(ec, int, int);
CACS_EFFECT(ed, int, int);

enum { ROUNDS = 100 };
static int failures;

static void report(const char *what, int ok) {
  failures += !ok;
  printf("%s: %s\n", what, ok ? "ok" : "WRONG");
  fflush(stdout);
}

// Whether q is a request of effect `e` with payload `v`.
static int is(cacs_effect_request q, cacs_effect *e, int v) {
  return q.effect == e && *(int *)q.payload == v;
}

static void *returns_7(void *arg) {
  (void)arg;
  return (void *)7;
}

// Another table operation: an effect coroutine created, run to its end
// and freed by the caller (parent: the running chain's innermost).
static int run_to_end(void) {
  cacs_effect_coro *y = cacs_effect_create(returns_7, NULL, 0);
  cacs_effect_request q = cacs_effect_resume(y, CACS_HANDLES(ed), NULL);
  cacs_effect_destroy(y);
  return q.effect == NULL ? (int)(intptr_t)q.payload : -1;
}

// --- sets ---------------------------------------------------------------
// ROUNDS of ea, then ea, eb, ec, ec, ea; each answered with its payload + 1.
static void *abc(void *arg) {
  (void)arg;
  int s = 0;
  for (int i = 0; i < ROUNDS; ++i)
    s += CACS_PERFORM(ea, i);
  s += CACS_PERFORM(ea, 1000);
  s += CACS_PERFORM(eb, 2000);
  s += CACS_PERFORM(ec, 3000);
  s += CACS_PERFORM(ec, 4000);
  s += CACS_PERFORM(ea, 5000);
  return (void *)(intptr_t)s;
}

static void *sets_handler(void *arg) {
  (void)arg;
  cacs_effect_coro *k = cacs_effect_create(abc, NULL, 0);
  int ok = 1, r;
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(ea), NULL);
  for (int i = 0; i < ROUNDS; ++i) {
    ok &= is(q, &CACS_EFFECT_OF(ea), i);
    r = i + 1;
    q = cacs_effect_resume(k, CACS_HANDLES(ea), &r);
  }
  ok &= is(q, &CACS_EFFECT_OF(ea), 1000);
  r = 1001;
  q = cacs_effect_resume(k, CACS_HANDLES(ea, eb), &r); // one -> two
  ok &= is(q, &CACS_EFFECT_OF(eb), 2000);
  r = 2001;
  q = cacs_effect_resume(k, CACS_HANDLES(ea, eb, ec), &r); // two -> three
  ok &= is(q, &CACS_EFFECT_OF(ec), 3000);
  r = 3001;
  q = cacs_effect_resume(k, CACS_HANDLES(ea, eb), &r); // three -> two
  // Its second ec went past us, to main (which answered 4002); then ea.
  ok &= is(q, &CACS_EFFECT_OF(ea), 5000);
  r = 5001;
  q = cacs_effect_resume(k, CACS_HANDLES(ea, eb), &r);
  ok &= q.effect == NULL;
  int expect = ROUNDS * (ROUNDS + 1) / 2 + 1001 + 2001 + 3001 + 4002 + 5001;
  ok &= (int)(intptr_t)q.payload == expect;
  cacs_effect_destroy(k);
  return (void *)(intptr_t)ok;
}

static void test_sets(void) {
  cacs_effect_coro *h = cacs_effect_create(sets_handler, NULL, 0);
  cacs_effect_request q = cacs_effect_resume(h, CACS_HANDLES(ec), NULL);
  int ok = is(q, &CACS_EFFECT_OF(ec), 4000);
  int r = 4002;
  q = cacs_effect_resume(h, CACS_HANDLES(ec), &r);
  ok &= q.effect == NULL && q.payload == (void *)1;
  report("sets", ok);
  cacs_effect_destroy(h);
}

// --- shallow --------------------------------------------------------------
static void *only_a(void *arg) {
  (void)arg;
  int s = 0;
  for (int i = 0; i < ROUNDS + 2; ++i)
    s += CACS_PERFORM(ea, i);
  return (void *)(intptr_t)s;
}

static void *shallow_handler(void *arg) {
  (void)arg;
  cacs_effect_coro *k = cacs_effect_create(only_a, NULL, 0);
  int ok = 1, r;
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(ea), NULL);
  for (int i = 0; i < ROUNDS; ++i) {
    ok &= is(q, &CACS_EFFECT_OF(ea), i);
    r = 1;
    q = cacs_effect_resume(k, CACS_HANDLES(ea), &r);
  }
  // Answer with {eb}: its last ea (ROUNDS + 1) goes past us to main,
  // which answers 7.
  ok &= is(q, &CACS_EFFECT_OF(ea), ROUNDS);
  r = 1;
  q = cacs_effect_resume(k, CACS_HANDLES(eb), &r);
  ok &= q.effect == NULL && (int)(intptr_t)q.payload == ROUNDS + 1 + 7;
  cacs_effect_destroy(k);
  return (void *)(intptr_t)ok;
}

static void test_shallow(void) {
  cacs_effect_coro *h = cacs_effect_create(shallow_handler, NULL, 0);
  cacs_effect_request q = cacs_effect_resume(h, CACS_HANDLES(ea), NULL);
  int ok = is(q, &CACS_EFFECT_OF(ea), ROUNDS + 1);
  int r = 7;
  q = cacs_effect_resume(h, CACS_HANDLES(ea), &r);
  ok &= q.effect == NULL && q.payload == (void *)1;
  report("shallow", ok);
  cacs_effect_destroy(h);
}

// --- forward ----------------------------------------------------------------
static const void *ed_default(void *payload) {
  static int r;
  r = *(int *)payload * 10;
  return &r;
}

static void *forward_body(void *arg) {
  (void)arg;
  int s = 0;
  for (int i = 0; i < ROUNDS; ++i)
    s += CACS_PERFORM(ea, i); // two handlers up
  s += CACS_PERFORM(eb, 50);  // one up
  s += CACS_PERFORM(ed, 6);   // nobody: its default handler
  s += CACS_PERFORM(ea, 70);  // two up again
  return (void *)(intptr_t)s;
}

// Handles eb around forward_body.
static void *handles_b(void *arg) {
  (void)arg;
  cacs_effect_coro *k = cacs_effect_create(forward_body, NULL, 0);
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(eb), NULL);
  int ok = is(q, &CACS_EFFECT_OF(eb), 50);
  int r = 51;
  q = cacs_effect_resume(k, CACS_HANDLES(eb), &r);
  ok &= q.effect == NULL;
  void *v = q.payload;
  cacs_effect_destroy(k);
  return ok ? v : NULL;
}

static void test_forward(void) {
  cacs_effect_set_default(&CACS_EFFECT_OF(ed), ed_default);
  cacs_effect_coro *h = cacs_effect_create(handles_b, NULL, 0);
  cacs_effect_request q = cacs_effect_resume(h, CACS_HANDLES(ea), NULL);
  int ok = 1, r;
  for (int i = 0; i < ROUNDS; ++i) {
    ok &= is(q, &CACS_EFFECT_OF(ea), i);
    // Once, between a request and its answer, a coroutine that runs to
    // its end here: its parent is the chain's innermost (none), and the
    // answer that follows is no longer the table's next operation, so it
    // installs h's segment again, h down to forward_body.
    if (i == ROUNDS / 2)
      ok &= run_to_end() == 7;
    r = 2;
    q = cacs_effect_resume(h, CACS_HANDLES(ea), &r);
  }
  ok &= is(q, &CACS_EFFECT_OF(ea), 70);
  r = 71;
  q = cacs_effect_resume(h, CACS_HANDLES(ea), &r);
  ok &=
      q.effect == NULL && (int)(intptr_t)q.payload == 2 * ROUNDS + 51 + 60 + 71;
  report("forward", ok);
  cacs_effect_destroy(h);
  cacs_effect_set_default(&CACS_EFFECT_OF(ed), NULL);
}

// --- nested -------------------------------------------------------------------
static void *a_then_c(void *arg) {
  (void)arg;
  int s = 0;
  for (int i = 0; i < ROUNDS; ++i)
    s += CACS_PERFORM(ea, i); // to nested_handler
  s += CACS_PERFORM(ec, 9);   // past it, to main
  for (int i = 0; i < ROUNDS; ++i) {
    s += CACS_PERFORM(ea, i);
    // After main's answer, this is the chain's innermost again: the
    // parent of a coroutine it runs.
    if (i == ROUNDS / 2)
      s += run_to_end();
  }
  s += CACS_PERFORM(ec, 11);
  return (void *)(intptr_t)s;
}

static void *nested_handler(void *arg) {
  (void)arg;
  cacs_effect_coro *k = cacs_effect_create(a_then_c, NULL, 0);
  int ok = 1, r, n = 0;
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(ea), NULL);
  for (; q.effect; ++n) {
    ok &= is(q, &CACS_EFFECT_OF(ea), n % ROUNDS);
    r = 3;
    q = cacs_effect_resume(k, CACS_HANDLES(ea), &r);
  }
  ok &= n == 2 * ROUNDS &&
        (int)(intptr_t)q.payload == 6 * ROUNDS + 10 + 7 + 12;
  cacs_effect_destroy(k);
  return (void *)(intptr_t)ok;
}

static void test_nested(void) {
  cacs_effect_coro *h = cacs_effect_create(nested_handler, NULL, 0);
  int ok = 1, r;
  // Main's loop: ec's request, then h's end; each resume of h with the
  // same set continues a_then_c, two coroutines down.
  cacs_effect_request q = cacs_effect_resume(h, CACS_HANDLES(ec), NULL);
  ok &= is(q, &CACS_EFFECT_OF(ec), 9);
  r = 10;
  q = cacs_effect_resume(h, CACS_HANDLES(ec), &r);
  ok &= is(q, &CACS_EFFECT_OF(ec), 11);
  // Another table operation first: the answer installs h's segment again,
  // h down to a_then_c.
  ok &= run_to_end() == 7;
  r = 12;
  q = cacs_effect_resume(h, CACS_HANDLES(ec), &r);
  ok &= q.effect == NULL && q.payload == (void *)1;
  report("nested", ok);
  cacs_effect_destroy(h);
}

// --- tail -------------------------------------------------------------------
static const void *eb_default(void *payload) {
  static int r;
  r = *(int *)payload + 1000;
  return &r;
}

static void *tail_inner(void *arg) {
  (void)arg;
  for (int i = 0, j = 0;; ++i) { // main stops and destroys it
    CACS_PERFORM(ea, i);         // main's: two up
    if (i % 10 == 5)
      CACS_PERFORM(eb, j++); // mid's: one up
  }
  return NULL;
}

static void *tail_mid(void *arg) {
  (void)arg;
  cacs_effect_coro *in = cacs_effect_create(tail_inner, NULL, 0);
  int r = 0;
  cacs_effect_request q = cacs_effect_resume(in, CACS_HANDLES(eb), NULL);
  for (int i = 0;; ++i) {
    if (!is(q, &CACS_EFFECT_OF(eb), i)) {
      // main's perform of eb from outside (payload -1) reached this
      // handler, suspended: the segment's entries outlived it.
      report("tail", 0);
      printf("tail: eb %d reached mid's handler, expected %d\n",
             q.effect ? *(int *)q.payload : -2, i);
      fflush(stdout);
      _Exit(1);
    }
    q = cacs_effect_resume(in, CACS_HANDLES(eb), &r);
  }
  return NULL;
}

// eb performed from outside the segment (a coroutine main runs, handling
// another effect): its default handler answers.
static void *performs_eb(void *arg) {
  (void)arg;
  return (void *)(intptr_t)CACS_PERFORM(eb, -1);
}

static int outside_eb(void) {
  cacs_effect_coro *z = cacs_effect_create(performs_eb, NULL, 0);
  cacs_effect_request q = cacs_effect_resume(z, CACS_HANDLES(ed), NULL);
  cacs_effect_destroy(z);
  return q.effect == NULL ? (int)(intptr_t)q.payload : -2;
}

static void test_tail(void) {
  cacs_effect_set_default(&CACS_EFFECT_OF(eb), eb_default);
  cacs_effect_coro *mid = cacs_effect_create(tail_mid, NULL, 0);
  int ok = 1, r = 0;
  cacs_effect_request q = cacs_effect_resume(mid, CACS_HANDLES(ea), NULL);
  for (int i = 0; i < ROUNDS; ++i) {
    ok &= is(q, &CACS_EFFECT_OF(ea), i);
    // At 10, after fast answers; at 11, after the slow answer that follows
    // the first (it installs mid .. in again). (Each eb, answered by mid,
    // makes in the innermost again whatever came before: none in between.)
    if (i == 10 || i == 11)
      ok &= outside_eb() == 999;
    q = cacs_effect_resume(mid, CACS_HANDLES(ea), &r);
  }
  ok &= is(q, &CACS_EFFECT_OF(ea), ROUNDS);
  // Throw: mid and in, suspended, go back to the thread's cache.
  size_t cached = cacs_stack_pool_count();
  cacs_effect_destroy(mid);
  ok &= cacs_stack_pool_count() == cached + 2;
  report("tail", ok);
  cacs_effect_set_default(&CACS_EFFECT_OF(eb), NULL);
}

// --- ids --------------------------------------------------------------------
CACS_EFFECTS_10(n0);
CACS_EFFECTS_10(n1);
CACS_EFFECTS_10(n2);
CACS_EFFECTS_10(n3);
static cacs_effect *all_n[] = {
    CACS_EFFECTS_10_ADDRS(n0), CACS_EFFECTS_10_ADDRS(n1),
    CACS_EFFECTS_10_ADDRS(n2), CACS_EFFECTS_10_ADDRS(n3), NULL};
enum { NUM_N = sizeof all_n / sizeof all_n[0] - 1 };

// in's performs: x, y, x (payloads 1, 2, 3).
static void *ids_inner(void *arg) {
  cacs_effect **xy = (cacs_effect **)arg;
  int p1 = 1, p2 = 2, p3 = 3; // the answers live until the next resume
  int v = *(const int *)cacs_effect_perform(xy[0], &p1) * 100;
  v += *(const int *)cacs_effect_perform(xy[1], &p2) * 10;
  return (void *)(intptr_t)(v + *(const int *)cacs_effect_perform(xy[0], &p3));
}

// mid: handles y around in, answering 5.
static void *ids_mid(void *arg) {
  cacs_effect **xy = (cacs_effect **)arg;
  cacs_effect *const set[] = {xy[1], NULL};
  cacs_effect_coro *in = cacs_effect_create(ids_inner, arg, 0);
  cacs_effect_request q = cacs_effect_resume(in, set, NULL);
  int ok = 1, r = 5;
  for (; q.effect; r = 5) {
    ok &= q.effect == xy[1] && *(int *)q.payload == 2;
    q = cacs_effect_resume(in, set, &r);
  }
  cacs_effect_destroy(in);
  return ok ? q.payload : NULL;
}

static void *returns_null(void *arg) {
  (void)arg;
  return NULL;
}

static void test_ids(void) {
  // Number them in a row (a resume with the set numbers its effects).
  cacs_effect_coro *z = cacs_effect_create(returns_null, NULL, 0);
  cacs_effect_resume(z, all_n, NULL);
  cacs_effect_destroy(z);
  int ok = 1;
  for (int i = 0; i + 1 < NUM_N; ++i)
    ok &= all_n[i + 1]->id == all_n[i]->id + 1;
  // Across the end of the block's entries (16 today) for any numbering
  // that ran before.
  ok &= all_n[0]->id < 16 && all_n[NUM_N - 1]->id > 17;
  // main: handles x around mid, answering the payload + 6.
  for (int i = 0; i + 1 < NUM_N; ++i) {
    cacs_effect *xy[2] = {all_n[i], all_n[i + 1]};
    cacs_effect *const set[] = {xy[0], NULL};
    cacs_effect_coro *mid = cacs_effect_create(ids_mid, xy, 0);
    cacs_effect_request q = cacs_effect_resume(mid, set, NULL);
    int n = 0, r;
    for (; q.effect; ++n) {
      ok &= q.effect == xy[0] && *(int *)q.payload == 1 + 2 * n;
      r = *(int *)q.payload + 6;
      q = cacs_effect_resume(mid, set, &r);
    }
    ok &= n == 2 && (int)(intptr_t)q.payload == 7 * 100 + 5 * 10 + 9;
    cacs_effect_destroy(mid);
  }
  report("ids", ok);
}

// --- block ----------------------------------------------------------------------
static void *block_handler(void *arg) {
  (void)arg;
  cacs_effect_coro *k = cacs_effect_create(only_a, NULL, 0);
  int ok = 1, r = 1, i = 0;
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(ea), NULL);
  for (; i < ROUNDS / 2; ++i) {
    ok &= is(q, &CACS_EFFECT_OF(ea), i);
    q = cacs_effect_resume(k, CACS_HANDLES(ea), &r);
  }
  CACS_SYNC { // its performs come back into this block
    for (; i < ROUNDS; ++i) {
      ok &= is(q, &CACS_EFFECT_OF(ea), i);
      q = cacs_effect_resume(k, CACS_HANDLES(ea), &r);
    }
  }
  for (; q.effect; ++i) {
    ok &= is(q, &CACS_EFFECT_OF(ea), i);
    q = cacs_effect_resume(k, CACS_HANDLES(ea), &r);
  }
  ok &= i == ROUNDS + 2 && (int)(intptr_t)q.payload == ROUNDS + 2;
  cacs_effect_destroy(k);
  return (void *)(intptr_t)ok;
}

static void test_block(void) {
  cacs_effect_coro *h = cacs_effect_create(block_handler, NULL, 0);
  cacs_effect_request q = cacs_effect_resume(h, CACS_HANDLES(eb), NULL);
  report("block", q.effect == NULL && q.payload == (void *)1);
  cacs_effect_destroy(h);
}

// --- handover -----------------------------------------------------------------
static cacs_effect_coro *handed;
static cacs_effect_request handed_q;

static void *counts_ea(void *arg) {
  (void)arg;
  for (int i = 0; i < ROUNDS; ++i)
    CACS_PERFORM(ea, i);
  return (void *)1;
}

// a keeps running (waits in cacs_yield) while b answers: b's control block
// is not a's reused, so the owner's test tells them apart.
static int handover_done;

static void gets_first(void *arg) {
  (void)arg;
  handed = cacs_effect_create(counts_ea, NULL, 0);
  handed_q = cacs_effect_resume(handed, CACS_HANDLES(ea), NULL);
  while (!handover_done)
    cacs_yield();
}

static void answers_rest(void *arg) {
  while (!handed || !handed_q.effect)
    cacs_yield();
  int r = 0, ok = is(handed_q, &CACS_EFFECT_OF(ea), 0);
  cacs_effect_request q;
  for (int i = 1; i < ROUNDS; ++i) {
    q = cacs_effect_resume(handed, CACS_HANDLES(ea), &r);
    ok &= is(q, &CACS_EFFECT_OF(ea), i);
  }
  q = cacs_effect_resume(handed, CACS_HANDLES(ea), &r);
  *(int *)arg = ok && q.effect == NULL && q.payload == (void *)1;
  handover_done = 1;
}

static void test_handover(void) {
  int ok = 0;
  cacs_coro *a = cacs_create(gets_first, NULL, 0);
  cacs_coro *b = cacs_create(answers_rest, &ok, 0);
  cacs_join(b);
  cacs_join(a);
  cacs_effect_destroy(handed);
  report("handover", ok);
}

// --- aside -------------------------------------------------------------------
static int aside_step; // 1: a holds its request; 2: b is done

static void holds_request(void *arg) {
  cacs_effect_coro *k = cacs_effect_create(counts_ea, NULL, 0);
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(ea), NULL);
  int r = 0, ok = is(q, &CACS_EFFECT_OF(ea), 0);
  aside_step = 1;
  while (aside_step != 2)
    cacs_yield();
  for (int i = 1; i < ROUNDS; ++i) {
    q = cacs_effect_resume(k, CACS_HANDLES(ea), &r);
    ok &= is(q, &CACS_EFFECT_OF(ea), i);
  }
  q = cacs_effect_resume(k, CACS_HANDLES(ea), &r);
  ok &= q.effect == NULL && q.payload == (void *)1;
  cacs_effect_destroy(k);
  *(int *)arg = ok;
}

static void runs_no_chain(void *arg) {
  while (aside_step != 1)
    cacs_yield();
  *(int *)arg = CACS_PERFORM(ed, 4) == 40 && run_to_end() == 7;
  aside_step = 2;
}

static void test_aside(void) {
  int ok_a = 0, ok_b = 0;
  cacs_effect_set_default(&CACS_EFFECT_OF(ed), ed_default);
  cacs_coro *a = cacs_create(holds_request, &ok_a, 0);
  cacs_coro *b = cacs_create(runs_no_chain, &ok_b, 0);
  cacs_join(b);
  cacs_join(a);
  cacs_effect_set_default(&CACS_EFFECT_OF(ed), NULL);
  report("aside", ok_a && ok_b);
}

// --- sync-abort -----------------------------------------------------------------
static void *performs_then_blocks(void *arg) {
  (void)arg;
  for (int i = 0; i < ROUNDS; ++i)
    CACS_PERFORM(ea, i);
  CACS_SYNC {
    printf("block at line %d\n", __LINE__ - 1);
    fflush(stdout);
    CACS_PERFORM(ea, -1); // its handler is main, outside the block
  }
  return NULL;
}

// --- foreign --------------------------------------------------------------------
static void *rounds_then_waits(void *arg) {
  (void)arg;
  for (int i = 0; i < ROUNDS; ++i)
    CACS_PERFORM(ea, i);
  cacs_yield(); // to main, under its handler's chain
  return NULL;
}

static void runs_chain(void *arg) {
  (void)arg;
  cacs_effect_coro *k = cacs_effect_create(rounds_then_waits, NULL, 0);
  int r = 0, ok = 1;
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(ea), NULL);
  for (int i = 0; i < ROUNDS; ++i) {
    ok &= is(q, &CACS_EFFECT_OF(ea), i);
    if (i == ROUNDS - 1)
      report("rounds", ok); // the next resume's coroutine yields to main
    q = cacs_effect_resume(k, CACS_HANDLES(ea), &r);
  }
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "sync-abort")) {
    cacs_effect_coro *k = cacs_effect_create(performs_then_blocks, NULL, 0);
    int r = 0;
    cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(ea), NULL);
    while (q.effect)
      q = cacs_effect_resume(k, CACS_HANDLES(ea), &r);
    printf("not reached\n");
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "foreign")) {
    cacs_coro *c = cacs_create(runs_chain, NULL, 0);
    cacs_yield(); // c's chain, which handles ea, waits in cacs_yield
    CACS_PERFORM(ea, 1); // aborts: not c's handler's to answer
    printf("not reached\n");
    cacs_join(c);
    return 0;
  }
  // No argument: every case; else the one named.
  const char *only = argc > 1 ? argv[1] : "";
  static const struct {
    const char *name;
    void (*run)(void);
  } cases[] = {{"sets", test_sets},
               {"shallow", test_shallow},
               {"forward", test_forward},
               {"nested", test_nested},
               {"tail", test_tail},
               {"ids", test_ids},
               {"block", test_block},
               {"handover", test_handover},
               {"aside", test_aside}};
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; ++i)
    if (!*only || !strcmp(only, cases[i].name))
      cases[i].run();
  printf(failures ? "FAIL\n" : "PASS\n");
  return failures != 0;
}
