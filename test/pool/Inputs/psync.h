// A harness for the pool synchronization tests (cacs/pool_sync.h): tasks
// are spawned and joined the same way on two backends.
//
//   default          the M:N pool (cacs/pool.h), WORKERS worker threads;
//   -DPSYNC_MOCK     every task an OS thread, and pool_park.h's contract
//                    implemented here on a mutex and condition variable
//                    per task: the lock code (lib/pool/pool_sync.c, built
//                    into the test) runs on real parallel threads without
//                    the pool, under ThreadSanitizer too.
//
// h_start(workers); h_spawn(fn, arg) ...; h_join_all(); h_stop();
// h_plain(fn, arg) runs fn on a plain thread (not a pool coroutine).
#ifndef PSYNC_H
#define PSYNC_H

#define _GNU_SOURCE 1
#include "cacs/pool_sync.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ptest.h"

#define H_MAX 4096

static pthread_t h_plain_th[H_MAX];
static int h_nplain;
// Tasks may spawn tasks: the lists are guarded.
static pthread_mutex_t h_mu = PTHREAD_MUTEX_INITIALIZER;

struct h_plain_arg {
  void (*fn)(void *);
  void *arg;
};

static void *h_plain_main(void *p) {
  struct h_plain_arg a = *(struct h_plain_arg *)p;
  free(p);
  a.fn(a.arg);
  return NULL;
}

/// Run fn(arg) on a new plain thread (joined by h_join_all).
static inline void h_plain(void (*fn)(void *), void *arg) {
  struct h_plain_arg *a = malloc(sizeof *a);
  a->fn = fn;
  a->arg = arg;
  pthread_mutex_lock(&h_mu);
  H_CHECK(pthread_create(&h_plain_th[h_nplain++], NULL, h_plain_main, a) == 0);
  pthread_mutex_unlock(&h_mu);
}

#ifdef PSYNC_MOCK
// --- the mock pool: a task per OS thread ------------------------------------
#include "pool_park.h"

struct cacs__ptask {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int parked; // 1 while parked and not woken
  void (*fn)(void *);
  void *arg;
};

// pool_park.h's thread-local current task: each task is its own thread.
__thread cacs__ptask *cacs__pool_cur;
#define h_cur cacs__pool_cur
static cacs__ptask h_tasks[H_MAX];
static pthread_t h_th[H_MAX];
static int h_ntasks;

cacs__ptask *cacs__pool_self(void) { return h_cur; }

/// Parks so far, of every task (white box: a lock taken without parking).
static int h_parks;

int cacs__pool_park(void (*after)(void *), void *arg, uint64_t deadline) {
  cacs__ptask *t = h_cur;
  __atomic_add_fetch(&h_parks, 1, __ATOMIC_RELAXED);
  pthread_mutex_lock(&t->mu);
  t->parked = 1;
  pthread_mutex_unlock(&t->mu);
  if (after)
    after(arg); // nothing of the caller's is left to save: a thread
  pthread_mutex_lock(&t->mu);
  int r = 0;
  while (t->parked) {
    if (!deadline) {
      pthread_cond_wait(&t->cv, &t->mu);
      continue;
    }
    struct timespec ts = {(time_t)(deadline / 1000000000u),
                          (long)(deadline % 1000000000u)};
    if (pthread_cond_timedwait(&t->cv, &t->mu, &ts) == ETIMEDOUT && t->parked) {
      t->parked = 0; // the timeout wins: a later wake returns 0
      r = ETIMEDOUT;
    }
  }
  pthread_mutex_unlock(&t->mu);
  return r;
}

int cacs__pool_wake(cacs__ptask *t) {
  pthread_mutex_lock(&t->mu);
  int r = t->parked;
  t->parked = 0;
  if (r)
    pthread_cond_signal(&t->cv);
  pthread_mutex_unlock(&t->mu);
  return r;
}

/// White box: called at each hand-off, before `t` is woken (NULL: none).
static void (*h_on_handoff)(cacs__ptask *t);

void cacs__pool_handoff(cacs__ptask *t) {
  if (h_on_handoff)
    h_on_handoff(t);
  cacs__pool_wake(t);
  sched_yield();
}

void cacs__pool_yield(void) { sched_yield(); }

// libcacs's abort with a message (fatal.c), by which pool_sync.c reports a
// misuse.
void cacs__fatal(const char *msg) {
  fputs(msg, stderr);
  abort();
}

// Every task is a thread: a hand-off is a wake, and the holder may run
// while a waiter spins.
int cacs__pool_handoff_pays(cacs__ptask *t) { return h_cur && t; }
unsigned cacs__pool_workers(void) { return h_cur ? 2 : 0; }
int cacs__pool_pinned(void) { return 0; }
int cacs__pool_owner_may_run(const void *owner) { (void)owner; return 1; }
void cacs__pool_lock_wait(void *const *owner) { (void)owner; } // no idle workers

static void *h_task_main(void *p) {
  h_cur = p;
  h_cur->fn(h_cur->arg);
  return NULL;
}

static inline void h_start(unsigned workers) { (void)workers; }

static inline void h_spawn(void (*fn)(void *), void *arg) {
  pthread_mutex_lock(&h_mu);
  H_CHECK(h_ntasks < H_MAX);
  cacs__ptask *t = &h_tasks[h_ntasks];
  pthread_mutex_init(&t->mu, NULL);
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&t->cv, &ca);
  t->fn = fn;
  t->arg = arg;
  H_CHECK(pthread_create(&h_th[h_ntasks], NULL, h_task_main, t) == 0);
  h_ntasks++;
  pthread_mutex_unlock(&h_mu);
}

static inline int h_join_one(int i) {
  pthread_join(h_th[i], NULL);
  pthread_mutex_destroy(&h_tasks[i].mu);
  pthread_cond_destroy(&h_tasks[i].cv);
  return 0;
}

static inline void h_stop(void) {}
static inline void h_yield(void) { sched_yield(); }
static inline int h_worker(void) { return -1; }

#else
// --- the real pool ----------------------------------------------------------
#include "cacs/pool.h"

static cacs_pool *h_pool;
static cacs_pool_task *h_pt[H_MAX];
static int h_ntasks;

// The sync tests are built with -fcoroutine-migration and check the objects
// under migration: their pool lets running coroutines move unless a test
// asks for the default (-DH_MIGRATE=CACS_POOL_MIGRATE_UNSTARTED).
#ifndef H_MIGRATE
#define H_MIGRATE CACS_POOL_MIGRATE_RUNNING
#endif

static inline void h_start(unsigned workers) {
  cacs_pool_attr attr = {workers, 0, H_MIGRATE};
  h_pool = cacs_pool_create_ex(&attr);
  H_CHECK(h_pool);
}

static inline void h_spawn(void (*fn)(void *), void *arg) {
  pthread_mutex_lock(&h_mu);
  H_CHECK(h_ntasks < H_MAX);
  H_CHECK((h_pt[h_ntasks++] = cacs_pool_spawn(h_pool, fn, arg)));
  pthread_mutex_unlock(&h_mu);
}

static inline int h_join_one(int i) { return cacs_pool_join(h_pt[i]); }

static inline void h_stop(void) { H_CHECK(cacs_pool_destroy(h_pool) == 0); }
static inline void h_yield(void) { cacs_pool_yield(); }
static inline int h_worker(void) { return cacs_pool_worker_index(); }
#endif

/// Join every task and plain thread, also those spawned meanwhile (from the
/// main thread only).
static inline void h_join_all(void) {
  for (int i = 0, j = 0;;) {
    pthread_mutex_lock(&h_mu);
    int nt = h_ntasks, np = h_nplain;
    pthread_mutex_unlock(&h_mu);
    if (i == nt && j == np)
      break;
    for (; i < nt; ++i)
      H_CHECK(h_join_one(i) == 0);
    for (; j < np; ++j)
      pthread_join(h_plain_th[j], NULL);
  }
  h_ntasks = h_nplain = 0;
}

/// Run body((void *)i) on `tasks` pool tasks (i = 0 .. tasks-1) and `plain`
/// plain threads (i = tasks ..), then join them all.
static inline void h_run_all(void (*body)(void *), int tasks, int plain) {
  for (intptr_t i = 0; i < tasks; ++i)
    h_spawn(body, (void *)i);
  for (intptr_t i = 0; i < plain; ++i)
    h_plain(body, (void *)(tasks + i));
  h_join_all();
}

/// White box: the waiters on queue `q`, read under its object's spin lock,
/// counted up to `cap` (a record's first word is its link:
/// lib/pool/pool_waiter.h).
static inline int h_waiters(uint32_t *spin, cacs__pwaitq *q, int cap) {
  while (__atomic_exchange_n(spin, 1, __ATOMIC_ACQUIRE))
    ;
  int n = 0;
  for (void **w = (void **)q->head; w && n < cap; w = (void **)*w)
    ++n;
  __atomic_store_n(spin, 0, __ATOMIC_RELEASE);
  return n;
}

/// White box: the waiters queued on `m`: 0, 1, or 2 for two or more.
static inline int h_mutex_waiters(cacs_pool_mutex *m) {
  return h_waiters(&m->spin, &m->waiters, 2);
}

/// White box: the waiters queued on `rw`: readers and the writer marking
/// it, and writers waiting for its writers' mutex.
static inline int h_rwlock_waiters(cacs_pool_rwlock *rw) {
  return h_waiters(&rw->spin, &rw->waiters, INT32_MAX) +
         h_waiters(&rw->wmu.spin, &rw->wmu.waiters, INT32_MAX);
}

/// A task that keeps its worker busy, never parking, from when it sets
/// h_busy_started until h_busy_done is set. It yields the CPU
/// (sched_yield), not its worker: the workers may share one CPU.
static int h_busy_started, h_busy_done;
static inline void h_busy(void *arg) {
  (void)arg;
  __atomic_store_n(&h_busy_started, 1, __ATOMIC_RELEASE);
  while (!__atomic_load_n(&h_busy_done, __ATOMIC_ACQUIRE))
    sched_yield();
}

#endif // PSYNC_H
