// ThreadSanitizer keeps one call stack per thread; without fiber
// annotations it sees the coroutines of a thread as one call stack that
// their switches interleave. Each coroutine and generator is a TSan fiber
// (libcacs, built with or without TSan, finds the TSan runtime at link
// time):
//   exits:   coroutines that end with cacs_exit from deep inside leave their
//            frames on that one stack: TSan's shadow stack overflows and
//            it dies with SEGV after enough of them.
//   race:    a real race between a coroutine and another thread is
//            reported with the coroutine's own stack, not with the frames
//            of the coroutine suspended before it underneath.
//   genrace: the same for a generator suspended in its body.
//   xthread: data handed between threads through cacs_xsem and a shared
//            channel, and through a generator, is no race: no report.
//
// RUN: %clang -O1 -g -fsanitize=thread -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t exits 2>&1 | FileCheck %s --check-prefix=EXITS
// RUN: not %t race 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not %t genrace 2>&1 | FileCheck %s --check-prefix=GENRACE
// RUN: %t xthread 2>&1 | FileCheck %s --check-prefix=XTHREAD
// The same with libcacs's sources built with TSan too.
// RUN: %clang -O1 -g -fsanitize=thread -I%cacs_include %s $(%cacs_rt_objs %clang -O1 -g -fsanitize=thread -I%cacs_include) -lpthread -o %t.rt
// RUN: %t.rt exits 2>&1 | FileCheck %s --check-prefix=EXITS
// RUN: not %t.rt race 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: not %t.rt genrace 2>&1 | FileCheck %s --check-prefix=GENRACE
// RUN: %t.rt xthread 2>&1 | FileCheck %s --check-prefix=XTHREAD
//
// EXITS-NOT: ThreadSanitizer
// EXITS: exits: 10000 done
//
// RACE: WARNING: ThreadSanitizer: data race
// RACE: {{Write|Read}} of size 8 at {{.*}} by thread T{{[0-9]+}}:
// RACE-NEXT: #0 racer_writes {{.*}}coro-tsan.c
// RACE-NEXT: #1 racer_entry {{.*}}coro-tsan.c
// RACE-NOT: sleeper
// RACE: Thread T{{[0-9]+}} 'the racer'
// RACE: SUMMARY: ThreadSanitizer: data race
//
// GENRACE: WARNING: ThreadSanitizer: data race
// GENRACE: Write of size 8 at {{.*}} by main thread:
// GENRACE-NEXT: #0 racer_writes {{.*}}coro-tsan.c
// GENRACE-NEXT: #1 racer_consumes {{.*}}coro-tsan.c
// GENRACE-NEXT: #2 genrace {{.*}}coro-tsan.c
// GENRACE-NOT: sleeper
// GENRACE: SUMMARY: ThreadSanitizer: data race
//
// XTHREAD-NOT: ThreadSanitizer
// XTHREAD: xthread: sum=
// XTHREAD-SAME: done

#include "cacs/coro.h"
#include "cacs/generator.h"
#include "cacs/sync.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// --- exits -------------------------------------------------------------------

static long steps;

// Not a tail call: each level keeps its frame until the exit.
__attribute__((noinline)) static void exit_deep(int depth) {
  if (depth > 0)
    exit_deep(depth - 1);
  else
    cacs_exit();
  steps--; // never reached
}

static void exiter(void *arg) {
  (void)arg;
  steps += 101;
  exit_deep(100);
}

static void exits(void) {
  enum { N = 10000 };
  for (int i = 0; i < N; i++)
    cacs_join(cacs_create(exiter, NULL, 0));
  printf("exits: %d %s\n", N, steps == (long)N * 101 ? "done" : "wrong");
}

// --- race --------------------------------------------------------------------

static long shared;
static int posted; // relaxed: no synchronization for TSan

__attribute__((noinline)) static void sleeper_waits(int n) {
  for (int i = 0; i < n; i++)
    cacs_yield();
}

static void sleeper_entry(void *arg) {
  (void)arg;
  sleeper_waits(3); // suspended in here while the racer runs
}

__attribute__((noinline)) static void racer_writes(void) { shared = 2; }

static void racer_entry(void *arg) {
  (void)arg;
  racer_writes();
}

static void *other_thread(void *arg) {
  (void)arg;
  shared = 1;
  __atomic_store_n(&posted, 1, __ATOMIC_RELAXED);
  return NULL;
}

static void race(void) {
  pthread_t t;
  pthread_create(&t, NULL, other_thread, NULL);
  while (!__atomic_load_n(&posted, __ATOMIC_RELAXED))
    ;
  cacs_coro *s = cacs_create(sleeper_entry, NULL, 0);
  cacs_coro *r = cacs_create(racer_entry, NULL, 0);
  cacs_set_name(r, "the racer");
  cacs_join(r);
  cacs_join(s);
  pthread_join(t, NULL);
  printf("race: shared=%ld\n", shared);
}

// The same with a generator suspended in its body while its consumer
// races.
__attribute__((noinline)) static void gen_sleeper_waits(cacs_gen *g) {
  cacs_gen_yield(g, 1);
}

static void gen_sleeper(cacs_gen *g, void *arg) {
  (void)arg;
  gen_sleeper_waits(g);
}

__attribute__((noinline)) static void racer_consumes(void) {
  cacs_gen *g = cacs_gen_create(gen_sleeper, NULL, 0);
  uint64_t v;
  cacs_gen_next(g, &v);
  racer_writes();
  while (cacs_gen_next(g, &v))
    ;
  cacs_gen_destroy(g);
}

static void genrace(void) {
  pthread_t t;
  pthread_create(&t, NULL, other_thread, NULL);
  while (!__atomic_load_n(&posted, __ATOMIC_RELAXED))
    ;
  racer_consumes();
  pthread_join(t, NULL);
  printf("genrace: shared=%ld\n", shared);
}

// --- xthread -----------------------------------------------------------------

enum { ITEMS = 200 };
static cacs_xsem ready, consumed;
static long slot[4]; // plain data, published by the semaphore
static cacs_chan *chan;

static void gen_body(cacs_gen *g, void *arg) {
  (void)arg;
  for (uint64_t i = 1; i <= ITEMS; i++) {
    long local[4] = {(long)i, (long)i * 2, (long)i * 3, (long)i * 4};
    memcpy(slot, local, sizeof slot);
    cacs_gen_yield(g, i);
  }
}

static void producer(void *arg) {
  (void)arg;
  cacs_gen *g = cacs_gen_create(gen_body, NULL, 0);
  uint64_t v;
  while (cacs_gen_next(g, &v)) {
    cacs_xsem_post(&ready);
    cacs_xsem_wait(&consumed, CACS_FOREVER);
    long item[4] = {(long)v, (long)v, (long)v, (long)v};
    cacs_chan_send(chan, item, CACS_FOREVER);
  }
  cacs_gen_destroy(g);
}

static long sum;

static void consumer(void *arg) {
  (void)arg;
  for (int i = 0; i < ITEMS; i++) {
    cacs_xsem_wait(&ready, CACS_FOREVER);
    sum += slot[0] + slot[1] + slot[2] + slot[3];
    cacs_xsem_post(&consumed);
    long item[4];
    cacs_chan_recv(chan, item, CACS_FOREVER);
    sum += item[3];
  }
}

static void *run_one(void *arg) {
  cacs_join(cacs_create((cacs_entry_fn)arg, NULL, 0));
  return NULL;
}

static void xthread(void) {
  cacs_xsem_init(&ready, 0);
  cacs_xsem_init(&consumed, 0);
  chan = cacs_chan_create(sizeof(long[4]), 2, CACS_CHAN_SHARED);
  pthread_t a, b;
  pthread_create(&a, NULL, run_one, (void *)producer);
  pthread_create(&b, NULL, run_one, (void *)consumer);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  cacs_chan_destroy(chan);
  cacs_xsem_destroy(&ready);
  cacs_xsem_destroy(&consumed);
  long want = 11L * ITEMS * (ITEMS + 1) / 2; // 10 i from slot, i from chan
  printf("xthread: sum=%ld %s\n", sum, sum == want ? "done" : "wrong");
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "";
  if (!strcmp(what, "exits"))
    exits();
  else if (!strcmp(what, "race"))
    race();
  else if (!strcmp(what, "genrace"))
    genrace();
  else if (!strcmp(what, "xthread"))
    xthread();
  else
    return 2;
  return 0;
}
