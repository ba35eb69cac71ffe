// Every pool call that may move the calling coroutine to another worker
// (cacs/pool.h, cacs/pool_sync.h: yields, sleeps, joins, every lock, unlock,
// wait, post, send and receive) must be a switch point for
// -fcoroutine-migration, however the program makes the call: directly,
// through a function pointer, through the program's own static inline
// helper, from a function of another translation unit (inlined with LTO),
// through a pointer that dlsym found at run time, and from C++. For each
// call and way, rounds of a tester and a partner coroutine on two workers
// make the call move the tester (the partner wakes it from the other
// worker, or takes the handed-off worker so that the other one steals the
// tester); after each move the tester's &errno and &tls, computed before
// and after the call with no other call between, must be the new
// thread's. Without the flag -O2 keeps the first thread's: STALE. A
// condition signal only makes its waiter runnable and never switches the
// caller (cacs/pool_sync.h), nor does a semaphore post while no waiter
// starves (it frees the unit and wakes a waiter to compete; starving, it
// hands the unit over and may switch): their rounds, set up as a
// release's would be to move it, must not move it (moved-signals).
//
// -O2 and STALE run on both LLVMs; the -fPIC and C++ builds on 19, the
// -flto build on 22 (CI runs both, so each CI run covers every build, in
// less time: these are the suite's slowest pool programs).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 -fcoroutine-migration -rdynamic -I%cacs_include -I%S/Inputs %s %S/Inputs/pool-tls-calls-other.c %cacs_rt_x86_64 -lpthread -ldl -o %t/O2
// RUN: %t/O2 | FileCheck %s
// RUN: %if llvm-19 %{ %clang -O2 -fcoroutine-migration -fPIC -rdynamic -I%cacs_include -I%S/Inputs %s %S/Inputs/pool-tls-calls-other.c %cacs_rt_x86_64 -lpthread -ldl -o %t/pic %}
// RUN: %if llvm-19 %{ %t/pic | FileCheck %s %}
// RUN: %if llvm-22 %{ %clang -O2 -fcoroutine-migration -flto -fPIC -rdynamic -I%cacs_include -I%S/Inputs %s %S/Inputs/pool-tls-calls-other.c %cacs_rt_x86_64 -lpthread -ldl -o %t/lto %}
// RUN: %if llvm-22 %{ %t/lto | FileCheck %s %}
// RUN: %if llvm-19 %{ %clang -O2 -fcoroutine-migration -rdynamic -x c++ -I%cacs_include -I%S/Inputs %s -x c %S/Inputs/pool-tls-calls-other.c -x none %cacs_rt_x86_64 -lpthread -ldl -o %t/cxx %}
// RUN: %if llvm-19 %{ %t/cxx | FileCheck %s %}
// RUN: %clang -O2 -rdynamic -I%cacs_include -I%S/Inputs %s %S/Inputs/pool-tls-calls-other.c %cacs_rt_x86_64 -lpthread -ldl -o %t/stale
// RUN: %t/stale | FileCheck %s --check-prefix=STALE
//
// CHECK-NOT: stale={{[1-9]}}
// CHECK: cells=80 stale-cells=0 unmoved-calls=0 moved-signals=0
// STALE: cells=80 stale-cells={{[1-9][0-9]*}} unmoved-calls=0 moved-signals=0

#ifndef _GNU_SOURCE
#define _GNU_SOURCE // RTLD_DEFAULT
#endif
#include "Inputs/pool-tls-fresh.h"
#include "pool-tls-calls.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LOAD(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define STORE(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)

static long long now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

// Busy for `us` microseconds without leaving the worker: the other worker
// must take (or steal) whatever becomes runnable meanwhile.
static void spin(int us) {
  long long end = now_us() + us;
  while (now_us() < end)
    ;
}

// Wait for the other side's flag: spinning while the other side runs on
// the other worker (so as to stay on this one), yielding while it needs
// this one.
static void wait_flag(int *f, int *self_worker, int *other_worker) {
  long long end = now_us() + 5000000;
  while (!LOAD(f) && now_us() < end) {
    STORE(self_worker, cacs_pool_worker_index());
    if (LOAD(self_worker) == LOAD(other_worker))
      cacs_pool_yield();
    else
      spin(20);
  }
}

// The partner: to another worker than the tester's before waking it. By
// time, not by a count of yields: with more runnable threads than cores the
// other worker may not run for milliseconds, and 2,000 yields took less.
static void move_away(struct st *S) {
  long long end = now_us() + 1000000;
  while (cacs_pool_worker_index() == LOAD(&S->t_worker) && now_us() < end)
    cacs_pool_yield();
  STORE(&S->p_worker, cacs_pool_worker_index());
}

// The spins: long enough for the other side to park (qemu is slow).
enum { PARK_US = 1000, HOLD_US = 2000 };

// The partner of each call, and what the tester does before and after it
// (not under test).
static void partner(int op, struct st *S);
static void before(int op, struct st *S);
static void after(int op, struct st *S);

struct cell {
  int moved, stale;
};

// After the call: the tester's addresses, computed before any other call.
__attribute__((noinline)) static void record(struct cell *c, struct st *S,
                                             int *e, int *t, int v) {
  int w = S->t_worker, now = cacs_pool_worker_index();
  if (now == w)
    return;
  c->moved++;
  c->stale += e != fresh_errno();
  c->stale += t != fresh_tls();
  c->stale += v != 0 && v != 100 + now;
}

// The tester's probe: errno and tls used before the call, their addresses
// and tls's value taken right after it (PRE: what the way needs first, so
// that it is not a call between the two).
#define PROBE(name, way, PRE, CALL)                                            \
  static void probe_##name##_##way(struct cell *c, struct st *S) {             \
    PRE;                                                                       \
    int w = cacs_pool_worker_index();                                          \
    STORE(&S->t_worker, w);                                                    \
    STORE(&S->t_ready, 1);                                                     \
    errno = 0;                                                                 \
    tls = 100 + w;                                                             \
    CALL;                                                                      \
    int *e = &errno, *t = &tls, v = tls;                                       \
    record(c, S, e, t, v);                                                     \
  }

// The program's own static inline helper around each call.
#define DEFINE_INLINE(name, fn, args)                                          \
  static inline long inline_##name(struct st *S) {                             \
    (void)S;                                                                   \
    return ((void)(fn args), 0L);                                              \
  }
POOL_CALLS(DEFINE_INLINE)

static void *lookup(const char *name) {
  void *p = dlsym(RTLD_DEFAULT, name);
  if (!p) {
    fprintf(stderr, "dlsym: %s not found\n", name);
    exit(2);
  }
  return p;
}

#define PROBES(name, fn, args)                                                 \
  PROBE(name, direct, (void)0, fn args)                                        \
  PROBE(name, pointer, __typeof__(fn) *volatile p = fn, p args)                \
  PROBE(name, inline, (void)0, inline_##name(S))                               \
  PROBE(name, other_tu, (void)0, other_##name(S))                              \
  PROBE(name, dlsym, __typeof__(fn) *p = (__typeof__(fn) *)lookup(#fn),       \
        p args)
POOL_CALLS(PROBES)

typedef void probe_fn(struct cell *, struct st *);
enum { WAYS = 5 };
static const char *const way_names[WAYS] = {"direct", "pointer", "inline",
                                            "other-tu", "dlsym"};
#define ROW(name, fn, args)                                                    \
  {#name,                                                                      \
   {probe_##name##_direct, probe_##name##_pointer, probe_##name##_inline,      \
    probe_##name##_other_tu, probe_##name##_dlsym}},
static const struct {
  const char *name;
  probe_fn *way[WAYS];
} calls[] = {POOL_CALLS(ROW)};
enum { NCALLS = sizeof calls / sizeof calls[0] };

enum {
#define INDEX(name, fn, args) OP_##name,
  POOL_CALLS(INDEX)
#undef INDEX
};

// Keeps the tester's worker busy while the tester waits in a join or a
// dispatch lock. Their wakers put the tester on the waker's own deque and
// wake an idle worker; with more runnable threads than cores, that worker
// was often the tester's own, which stole it back before the waker's worker
// ran it, for every round of 5 s. Busy, it cannot steal.
static void occupy(void *arg) {
  struct st *S = (struct st *)arg;
  long long end = now_us() + 1000000;
  while (cacs_pool_worker_index() == LOAD(&S->t_worker) &&
         !LOAD(&S->t_done) && now_us() < end)
    ;
}

static void before(int op, struct st *S) {
  switch (op) {
  case OP_lock:
  case OP_lock_dispatch:
  case OP_rw_wrlock:
    wait_flag(&S->p_ready, &S->t_worker, &S->p_worker); // the partner holds the lock
    break;
  case OP_unlock:
  case OP_cond_wait:
    cacs_pool_mutex_lock(&S->m, CACS_POOL_FOREVER);
    if (op == OP_unlock) {
      STORE(&S->t_ready, 1);
      wait_flag(&S->p_ready, &S->t_worker, &S->p_worker);
      spin(PARK_US); // the partner waits for the mutex
    }
    break;
  case OP_cond_signal: // what a CES release needs to move the caller
    wait_flag(&S->p_ready, &S->t_worker, &S->p_worker);
    // Free only once the partner waits on the condition variable.
    cacs_pool_mutex_lock(&S->m, CACS_POOL_FOREVER);
    cacs_pool_mutex_unlock(&S->m);
    break;
  case OP_rw_wrunlock:
    cacs_pool_rwlock_wrlock(&S->rw, CACS_POOL_FOREVER);
    STORE(&S->t_ready, 1);
    wait_flag(&S->p_ready, &S->t_worker, &S->p_worker);
    spin(PARK_US);
    break;
  case OP_sem_post:
  case OP_wg_done:
  case OP_chan_send:
    wait_flag(&S->p_ready, &S->t_worker, &S->p_worker);
    spin(PARK_US); // the partner waits
    break;
  }
}

static void after(int op, struct st *S) {
  switch (op) {
  case OP_lock:
  case OP_lock_dispatch:
  case OP_cond_wait:
    cacs_pool_mutex_unlock(&S->m);
    break;
  case OP_rw_wrlock:
    cacs_pool_rwlock_wrunlock(&S->rw);
    break;
  }
}

static void partner(int op, struct st *S) {
  switch (op) {
  case OP_yield:
  case OP_sleep:
    // Keep the other worker busy, and let it take the tester.
    while (!LOAD(&S->t_done)) {
      cacs_pool_yield();
      spin(50);
    }
    return;
  case OP_join: // S->child: woken when this ends, on this worker
  case OP_sem_wait:
  case OP_wg_wait:
  case OP_chan_recv:
    wait_flag(&S->t_ready, &S->p_worker, &S->t_worker);
    move_away(S);
    spin(PARK_US);
    if (op == OP_sem_wait)
      cacs_pool_sem_post(&S->s);
    else if (op == OP_wg_wait)
      cacs_pool_waitgroup_done(&S->wg);
    else if (op == OP_chan_recv)
      cacs_pool_chan_send(S->ch, &S->item, CACS_POOL_FOREVER);
    return;
  case OP_lock:
  case OP_lock_dispatch:
  case OP_rw_wrlock:
    if (op == OP_rw_wrlock)
      cacs_pool_rwlock_rdlock(&S->rw, CACS_POOL_FOREVER);
    else
      cacs_pool_mutex_lock(&S->m, CACS_POOL_FOREVER);
    STORE(&S->p_ready, 1);
    wait_flag(&S->t_ready, &S->p_worker, &S->t_worker);
    move_away(S);
    spin(PARK_US);
    if (op == OP_rw_wrlock)
      cacs_pool_rwlock_rdunlock(&S->rw);
    else
      cacs_pool_mutex_unlock(&S->m);
    return;
  case OP_cond_wait:
    wait_flag(&S->t_ready, &S->p_worker, &S->t_worker);
    move_away(S);
    spin(PARK_US);
    cacs_pool_mutex_lock(&S->m, CACS_POOL_FOREVER);
    cacs_pool_cond_signal(&S->c);
    cacs_pool_mutex_unlock(&S->m);
    return;
  // The releases: the partner waits, the tester's release runs it in the
  // tester's place and queues the tester, which the other worker steals
  // while the partner holds this one.
  case OP_unlock:
    wait_flag(&S->t_ready, &S->p_worker, &S->t_worker);
    STORE(&S->p_ready, 1);
    cacs_pool_mutex_lock(&S->m, CACS_POOL_FOREVER);
    spin(HOLD_US);
    cacs_pool_mutex_unlock(&S->m);
    return;
  case OP_cond_signal:
    cacs_pool_mutex_lock(&S->m, CACS_POOL_FOREVER);
    STORE(&S->p_ready, 1);
    cacs_pool_cond_wait(&S->c, &S->m, CACS_POOL_FOREVER);
    spin(HOLD_US);
    cacs_pool_mutex_unlock(&S->m);
    return;
  case OP_rw_wrunlock:
    wait_flag(&S->t_ready, &S->p_worker, &S->t_worker);
    STORE(&S->p_ready, 1);
    cacs_pool_rwlock_rdlock(&S->rw, CACS_POOL_FOREVER);
    spin(HOLD_US);
    cacs_pool_rwlock_rdunlock(&S->rw);
    return;
  case OP_sem_post:
  case OP_wg_done:
  case OP_chan_send:
    STORE(&S->p_ready, 1);
    if (op == OP_sem_post)
      cacs_pool_sem_wait(&S->s, CACS_POOL_FOREVER);
    else if (op == OP_wg_done)
      cacs_pool_waitgroup_wait(&S->wg, CACS_POOL_FOREVER);
    else
      cacs_pool_chan_recv(S->ch, &S->item, CACS_POOL_FOREVER);
    spin(HOLD_US);
    return;
  }
}

struct round {
  struct st st;
  struct cell *cell;
  int op, way;
};

static void tester_body(void *arg) {
  struct round *r = (struct round *)arg;
  STORE(&r->st.t_worker, cacs_pool_worker_index());
  before(r->op, &r->st);
  // Right before the call: at the bottom of this worker's deque when the
  // tester waits, so this worker runs it next.
  if (r->op == OP_join || r->op == OP_lock_dispatch)
    r->st.occupier = cacs_pool_spawn(r->st.pool, occupy, &r->st);
  // A yield or a sleep moves the tester only when the other worker takes
  // it: try again until it does.
  int tries = r->op == OP_yield || r->op == OP_sleep ? 20 : 1;
  for (int moved = r->cell->moved; tries-- && r->cell->moved == moved;)
    calls[r->op].way[r->way](r->cell, &r->st);
  after(r->op, &r->st);
  STORE(&r->st.t_done, 1);
}

static void partner_body(void *arg) {
  struct round *r = (struct round *)arg;
  STORE(&r->st.p_worker, cacs_pool_worker_index());
  partner(r->op, &r->st);
}

static void one_round(cacs_pool *p, int op, int way, struct cell *c) {
  struct round r;
  memset(&r, 0, sizeof r);
  r.cell = c;
  r.op = op;
  r.way = way;
  r.st.t_worker = r.st.p_worker = -1;
  r.st.pool = p;
  cacs_pool_mutex_init(&r.st.m, op == OP_lock_dispatch
                                    ? CACS_POOL_LOCK_DISPATCH
                                    : CACS_POOL_LOCK_CES);
  cacs_pool_cond_init(&r.st.c);
  cacs_pool_sem_init(&r.st.s, 0);
  cacs_pool_waitgroup_init(&r.st.wg);
  if (op == OP_wg_wait || op == OP_wg_done)
    cacs_pool_waitgroup_add(&r.st.wg, 1);
  cacs_pool_rwlock_init(&r.st.rw, CACS_POOL_LOCK_CES);
  r.st.ch = cacs_pool_chan_create(sizeof(int), 1);
  cacs_pool_task *pt = cacs_pool_spawn(p, partner_body, &r);
  if (op == OP_join)
    r.st.child = pt; // the tester joins it
  cacs_pool_task *tt = cacs_pool_spawn(p, tester_body, &r);
  cacs_pool_join(tt);
  if (op != OP_join)
    cacs_pool_join(pt);
  if (r.st.occupier)
    cacs_pool_join(r.st.occupier);
  cacs_pool_chan_destroy(r.st.ch);
}

int main(void) {
  // Its running coroutines must move: it opts in.
  cacs_pool_attr attr = {2, 0, CACS_POOL_MIGRATE_RUNNING};
  cacs_pool *p = cacs_pool_create_ex(&attr);
  int cells = 0, stale_cells = 0, unmoved = 0, moved_signals = 0;
  for (int op = 0; op < NCALLS; ++op) {
    int moved = 0;
    for (int way = 0; way < WAYS; ++way) {
      struct cell c = {0, 0};
      // Rounds until the call moves, for up to 5 s: under qemu on a loaded
      // machine a second was once not enough for one call in all five
      // ways, and on a machine with more runnable threads than cores a
      // join's partner often ran on the tester's worker for 500 rounds in
      // a row. A sleep may never move: it stops after 500 rounds or 1 s
      // (the unmoved sleeps were most of this test's time, and a sleep
      // that has not moved has checked nothing). A signal (a post, here)
      // never moves: 4 rounds.
      int signal = op == OP_cond_signal || op == OP_sem_post;
      long long end = now_us() + (op == OP_sleep ? 1000000 : 5000000);
      for (int i = 0; (op != OP_sleep || i < 500) && (!signal || i < 4) &&
                      c.moved < 1 && now_us() < end;
           ++i)
        one_round(p, op, way, &c);
      printf("%s %s: moved=%d stale=%d\n", calls[op].name, way_names[way],
             c.moved, c.stale);
      ++cells;
      stale_cells += c.stale != 0;
      moved += c.moved;
    }
    // A sleep resumes on the worker it slept on unless the other one
    // steals it: it may never move; a signal must not; the others must.
    if (op == OP_cond_signal || op == OP_sem_post)
      moved_signals += moved;
    else
      unmoved += moved == 0 && op != OP_sleep;
  }
  cacs_pool_destroy(p);
  printf("cells=%d stale-cells=%d unmoved-calls=%d moved-signals=%d\n", cells,
         stale_cells, unmoved, moved_signals);
  return 0;
}
