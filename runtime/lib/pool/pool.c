//===- lib/pool/pool.c - The pool's API: create, destroy, spawn, join -----===//
//
// cacs/pool.h: a pool of worker threads (pool_worker.c runs each) and the
// life of its coroutines: spawned onto the pool's queues (pool_ready.c),
// joined once finished. How a coroutine runs, waits and wakes is in
// pool_worker.c, pool_park.c and pool_ready.c.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "pool_internal.h"

#include "../errors.h"
#include "../syncblock.h"
#include "pool_io.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void pool_free(cacs_pool *p) {
  cacs__pool_io_free(p);
  for (unsigned i = 0; i < p->nworkers; ++i) {
    pthread_mutex_destroy(&p->w[i].tlock);
    free(p->w[i].heap);
  }
  free(p->w);
  pthread_mutex_destroy(&p->qlock);
  pthread_mutex_destroy(&p->dlock);
  pthread_cond_destroy(&p->dcond);
  free(p);
}

cacs_pool *cacs_pool_create_ex(const cacs_pool_attr *attr) {
  unsigned n = attr ? attr->workers : 0;
  size_t ss = attr ? attr->stack_size : 0;
  int migrate = attr ? attr->migrate : CACS_POOL_MIGRATE_UNSTARTED;
  if (migrate != CACS_POOL_MIGRATE_UNSTARTED &&
      migrate != CACS_POOL_MIGRATE_RUNNING) {
    cacs__set_errno(EINVAL);
    return NULL;
  }
  if (n == 0) {
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    n = c > 0 ? (unsigned)c : 1;
  }
  if (ss > ((size_t)1 << 40)) {
    cacs__set_errno(EINVAL);
    return NULL;
  }
  cacs_pool *p = calloc(1, sizeof *p);
  pool_worker *w = p ? aligned_alloc(64, n * sizeof *w) : NULL;
  if (!w) {
    free(p);
    cacs__set_errno(ENOMEM);
    return NULL;
  }
  memset(w, 0, n * sizeof *w);
  p->w = w;
  p->nworkers = n;
  p->stack_size = ss ? ss : CACS_STACK_DEFAULT_SIZE;
  p->migrate_running = migrate == CACS_POOL_MIGRATE_RUNNING;
  p->stack_flags = attr ? attr->stack_flags & CACS_STACK_NOBOUND : 0;
  pthread_mutex_init(&p->qlock, NULL);
  pthread_mutex_init(&p->dlock, NULL);
  pthread_cond_init(&p->dcond, NULL);
  for (unsigned i = 0; i < n; ++i) {
    w[i].pool = p;
    w[i].index = i;
    w[i].rng = 0x9E3779B97F4A7C15ull * (i + 1);
    w[i].pin = p->migrate_running ? NULL : &w[i];
    pthread_mutex_init(&w[i].tlock, NULL);
  }
  for (unsigned i = 0; i < n; ++i)
    if (pthread_create(&w[i].thread, NULL, cacs__pool_worker_main, &w[i]) !=
        0) {
      atomic_store_explicit(&p->stop, 1, memory_order_release);
      cacs__pool_notify(p, 1);
      for (unsigned j = 0; j < i; ++j)
        pthread_join(w[j].thread, NULL);
      pool_free(p);
      cacs__set_errno(EAGAIN);
      return NULL;
    }
  // Every worker has looked for its alternate signal stack before a
  // coroutine can start (nothing is spawned on `p` before it is returned).
  for (uint32_t r;
       (r = atomic_load_explicit(&p->ready, memory_order_acquire)) < n;)
    futex_wait(&p->ready, r, 0);
  if (atomic_load_explicit(&p->no_altstack, memory_order_relaxed))
    p->stack_flags |= CACS_STACK_NOBOUND;
  cacs__ppool_add(p);
  return p;
}

cacs_pool *cacs_pool_create(unsigned workers) {
  cacs_pool_attr a = {workers, 0, CACS_POOL_MIGRATE_UNSTARTED, 0};
  return cacs_pool_create_ex(&a);
}

unsigned cacs_pool_workers(const cacs_pool *p) { return p->nworkers; }

int cacs_pool_destroy(cacs_pool *p) {
  if (!p) {
    cacs__set_errno(EINVAL);
    return -1;
  }
  if (!cacs__ppool_remove(p)) // nothing read from `p` before this
    cacs__fatalf("cacs: cacs_pool_destroy(%p): not a pool that is alive: it "
                 "was destroyed already, or is being destroyed (a pool is "
                 "destroyed once, from outside it)\n",
                 (void *)p);
  pool_worker *me = cacs__pool_worker();
  if (me && me->pool == p) { // it would wait for its own caller
    cacs__ppool_add(p);
    cacs__set_errno(EDEADLK);
    return -1;
  }
  pthread_mutex_lock(&p->dlock);
  while (atomic_load_explicit(&p->live, memory_order_acquire) != 0)
    pthread_cond_wait(&p->dcond, &p->dlock);
  pthread_mutex_unlock(&p->dlock);
  atomic_store_explicit(&p->stop, 1, memory_order_release);
  cacs__pool_notify(p, 1);
  for (unsigned i = 0; i < p->nworkers; ++i)
    pthread_join(p->w[i].thread, NULL);
  pool_free(p);
  return 0;
}

// A control block, allocated on the thread's own stack where the caller
// is a coroutine (cacs__deep_call): spawn carries the wait budget
// (cacs/pool.h) and the C library's allocator has no stack bound.
static void task_alloc(void *out) {
  *(cacs__ptask **)out = calloc(1, sizeof(cacs__ptask));
}

static cacs__ptask *spawn(cacs_pool *p, void (*entry)(void *), void *arg,
                          int detached) {
  if (!p || !entry) {
    cacs__set_errno(EINVAL);
    return NULL;
  }
  cacs__ptask *t = NULL;
  cacs__deep_call(task_alloc, &t);
  if (!t) {
    cacs__set_errno(ENOMEM);
    return NULL;
  }
  t->pool = p;
  t->entry = entry;
  t->arg = arg;
  t->detached = detached;
  if (!detached)
    cacs__phandle_add(t);
  atomic_fetch_add_explicit(&p->live, 1, memory_order_relaxed);
  ptsan_release(t);
  struct cacs__syncblk *b = &cacs__syncblk;
  if (b->depth) { // queued when the outermost sync block ends
    t->qnext = NULL;
    *(b->deferred ? b->deferred_tail : &b->deferred) = t;
    b->deferred_tail = &t->qnext;
    return t;
  }
  // From here on `t` may run, finish and (detached) be freed.
  cacs__pool_ready(t);
  return t;
}

void cacs__pool_spawn_deferred(cacs__ptask *list) {
  while (list) {
    cacs__ptask *t = list;
    list = t->qnext;
    t->qnext = NULL;
    cacs__pool_ready(t);
  }
}

cacs_pool_task *cacs_pool_spawn(cacs_pool *p, void (*entry)(void *),
                                void *arg) {
  return spawn(p, entry, arg, 0);
}

int cacs_pool_spawn_detached(cacs_pool *p, void (*entry)(void *), void *arg) {
  return spawn(p, entry, arg, 1) ? 0 : -1;
}

// Runs on the joiner's worker once the joiner has switched out.
static void join_after(void *arg) {
  cacs__ptask *t = arg;
  uint32_t z = 0;
  if (!atomic_compare_exchange_strong_explicit(&t->join_state, &z, 1,
                                               memory_order_acq_rel,
                                               memory_order_acquire))
    cacs__pool_wake(t->joiner); // finished meanwhile
}

int cacs_pool_join(cacs_pool_task *t) {
  if (!t) {
    cacs__set_errno(EINVAL);
    return -1;
  }
  cacs__ptask *self = cacs__pool_self();
  if (self == t) {
    cacs__set_errno(EDEADLK);
    return -1;
  }
  int claim = cacs__phandle_claim(t);
  if (claim < 0)
    cacs__fatalf("cacs: cacs_pool_join(%p): not a pool coroutine that can "
                 "still be joined: it was joined already (every handle of "
                 "cacs_pool_spawn is joined exactly once, and the join frees "
                 "it), or it is not a handle cacs_pool_spawn returned\n",
                 (void *)t);
  if (claim == 0) { // another join waits for it: the handle is alive
    cacs__set_errno(EINVAL);
    return -1;
  }
  if (atomic_load_explicit(&t->join_state, memory_order_acquire) != 2) {
    if (self) {
      t->joiner = self;
      cacs__pool_park(join_after, t, 0);
    } else {
      uint32_t z = 0;
      atomic_compare_exchange_strong_explicit(&t->join_state, &z, 3,
                                              memory_order_acq_rel,
                                              memory_order_acquire);
      while (atomic_load_explicit(&t->join_state, memory_order_acquire) != 2)
        futex_wait(&t->join_state, 3, 0);
    }
  }
  ptsan_acquire(t);
  int e = t->error;
  cacs__phandle_remove(t);
  cacs__deep_call(free, t); // as task_alloc
  if (e) {
    cacs__set_errno(e);
    return -1;
  }
  return 0;
}

void cacs_pool_yield(void) {
  if (cacs__pool_self())
    cacs__pool_yield();
  else
    sched_yield();
}

cacs_pool_task *cacs_pool_current(void) { return cacs__pool_self(); }

int cacs_pool_worker_index(void) {
  pool_worker *w = cacs__pool_worker();
  return w ? (int)w->index : -1;
}
