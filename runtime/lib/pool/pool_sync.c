//===- lib/pool/pool_sync.c - CES locks and friends for the pool ---------===//
//
// cacs/pool_sync.h on the pool's parking contract (pool_park.h).
//
// Every object is a state guarded by a test-and-test-and-set spin lock (the
// CES paper's final design, 5.1) and a FIFO of waiter records living on
// the waiters' stacks. A waiter queues its record under the spin lock and
// parks; the pool runs the `after` hook (release_spins) once the waiter is
// fully switched out, so a releaser that finds the record may resume it at
// once on any worker. A releaser takes the record off the queue, hands it
// the resource (ownership, a unit, an item) and sets `served`; the waiter
// decides what happened from `served` alone.
//
// Lifetimes. A waiter without a timeout is woken only by the releaser that
// served it, so after dropping the spin lock the releaser may still use its
// record and its task until it wakes it: that is what lets a CES release
// switch to it (cacs__pool_handoff) outside the lock. A waiter with a
// timeout may be resumed by its timer at any moment and then return (and
// its coroutine finish) as soon as it can see `served`, which it reads
// only under the spin lock: the releaser therefore wakes it while it still
// holds the lock, and never switches to it. Plain threads wait on a futex
// in their record, which the releaser posts under the lock for the same
// reason.
//
// errno is set by cacs__fail() (errors.h), out of line, after the last
// switch of a call: a call may resume on another worker, whose errno is
// another address.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "cacs/pool_sync.h"
#include "../errors.h"
#include "../sched.h"
#include "../waitq.h"
#include "futex.h"
#include "pool_park.h"
#include "pool_spin.h"
#include "pool_tsan.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { W_READER = 1, W_WRITER = 2 };

struct cacs__pwaiter {
  struct cacs__pwaiter *next, *prev;
  cacs__pwaitq *q;   // the queue it is on (a condition waiter moves)
  cacs__ptask *task; // NULL: a plain thread, waiting on `futex`
  void *self;        // the owner identity it takes (mutex, writer)
  void *item;        // channel: the sender's item / the receiver's buffer
  uint32_t futex;    // plain thread: 1 once served
  int served;        // atomic: set by the releaser under the spin lock
  int result;        // with served: 0 or EPIPE
  int timed;         // has a deadline (see "Lifetimes" above)
  int kind;          // W_READER / W_WRITER for the rwlock
};
typedef struct cacs__pwaiter waiter;

// --- spin locks ----------------------------------------------------------

// Up to two spin locks held together (a condition variable and its mutex,
// taken in that order).
typedef struct spins {
  uint32_t *a, *b;
} spins;

static void spins_lock(spins *s) {
  spin_lock(s->a);
  if (s->b)
    spin_lock(s->b);
}

static void spins_unlock(spins *s) {
  if (s->b)
    spin_unlock(s->b);
  spin_unlock(s->a);
}

// The park's `after` hook: the waiter is switched out, releasers may come.
static void release_spins(void *arg) { spins_unlock((spins *)arg); }

// --- errors, time, identity -----------------------------------------------

static inline int ret(int e) {
  return __builtin_expect(e != 0, 0) ? cacs__fail(e) : 0;
}

// The deadline for a timeout (0: none, for a negative one), on the clock
// and with the saturation every deadline of libcacs uses (sched.h).
static uint64_t deadline_of(int64_t timeout_us) {
  return timeout_us < 0 ? 0 : cacs__deadline_ns(cacs__now_ns(), timeout_us);
}

// A plain thread's identity as an owner: the address of a thread-local
// byte, tagged so that it can never equal a task's address. Plain threads
// do not migrate, so the address is stable.
static _Thread_local char thread_marker;

static void *self_id(cacs__ptask *t) {
  return t ? (void *)t : (void *)((uintptr_t)&thread_marker | 1);
}

// --- waiter queues -------------------------------------------------------

static void q_push(cacs__pwaitq *q, waiter *w) {
  CACS__WAITQ_PUSH(q, w);
  w->q = q;
}

static void q_remove(cacs__pwaitq *q, waiter *w) {
  CACS__WAITQ_REMOVE(q, w);
  w->q = NULL;
}

static waiter *q_pop(cacs__pwaitq *q) {
  waiter *w = q->head;
  if (w)
    q_remove(q, w);
  return w;
}

static void w_init(waiter *w, cacs__ptask *task, int64_t timeout_us) {
  memset(w, 0, sizeof *w);
  w->task = task;
  w->self = self_id(task);
  w->timed = timeout_us >= 0;
}

// --- serving ---------------------------------------------------------------

// Serve `w` (already off its queue) with `result`; called under the spin
// lock. A waiter the releaser may run in its own place (a pool task with no
// timeout) goes to *inplace if that is still free and inplace is not NULL;
// every other one is made runnable now, under the lock (see "Lifetimes").
static void serve(waiter *w, int result, cacs__ptask **inplace) {
  w->result = result;
  __atomic_store_n(&w->served, 1, __ATOMIC_RELEASE);
  if (!w->task) {
    __atomic_store_n(&w->futex, 1, __ATOMIC_RELEASE);
    cacs__futex_wake(&w->futex, 1);
  } else if (!w->timed && inplace && !*inplace) {
    *inplace = w->task;
  } else {
    cacs__pool_wake(w->task);
  }
}

// After the spin lock is dropped: run the waiter chosen by serve() in the
// caller's place (CES: the caller is queued on its worker) when the caller
// is a pool coroutine, else make it runnable.
static void run_served(cacs__ptask *t, int ces) {
  if (!t)
    return;
  if (ces && cacs__pool_self())
    cacs__pool_handoff(t);
  else
    cacs__pool_wake(t);
}

// --- waiting ---------------------------------------------------------------

// What to do with a waiter whose timeout passed before anyone served it,
// called under the spin locks: take it off its queue and return 1 (the wait
// fails with ETIMEDOUT), or return 0 to keep waiting without a deadline.
typedef int (*cancel_fn)(void *obj, waiter *w);

static int cancel_remove(void *obj, waiter *w) {
  (void)obj;
  q_remove(w->q, w);
  return 1;
}

// Wait until `w` (queued, the spin locks `sp` held) is served or the
// deadline passes. Returns with the locks released: the result the
// releaser gave, or ETIMEDOUT / ENOMEM after `cancel` took `w` off.
static int wait_served(waiter *w, spins *sp, uint64_t deadline,
                       cancel_fn cancel, void *obj) {
  if (w->task) {
    for (;;) {
      int r = cacs__pool_park(release_spins, sp, deadline);
      if (r == ENOMEM) { // did not park: the locks are still held
        cancel(obj, w);
        spins_unlock(sp);
        return ENOMEM;
      }
      if (r == 0 && !w->timed) {
        // Only the releaser that served us wakes an untimed waiter.
        if (__atomic_load_n(&w->served, __ATOMIC_ACQUIRE))
          return w->result;
        fprintf(stderr, "cacs: pool waiter woken without being served\n");
        abort();
      }
      spins_lock(sp);
      if (__atomic_load_n(&w->served, __ATOMIC_ACQUIRE)) {
        spins_unlock(sp);
        return w->result;
      }
      if (r == ETIMEDOUT && cancel(obj, w)) {
        spins_unlock(sp);
        return ETIMEDOUT;
      }
      if (r == ETIMEDOUT)
        deadline = 0; // keep waiting (a condition waiter on the mutex)
    }
  }
  // A plain thread: block on the record's futex.
  for (;;) {
    spins_unlock(sp);
    int timed_out = 0;
    while (!__atomic_load_n(&w->futex, __ATOMIC_ACQUIRE)) {
      if (cacs__futex_wait(&w->futex, 0, deadline) != 0 &&
          cacs__errno() == ETIMEDOUT) {
        timed_out = 1;
        break;
      }
    }
    spins_lock(sp);
    if (__atomic_load_n(&w->served, __ATOMIC_ACQUIRE)) {
      spins_unlock(sp);
      return w->result;
    }
    if (timed_out && cancel(obj, w)) {
      spins_unlock(sp);
      return ETIMEDOUT;
    }
    if (timed_out)
      deadline = 0;
  }
}

// --- mutex -------------------------------------------------------------------

int cacs_pool_mutex_init(cacs_pool_mutex *m, unsigned kind) {
  if (kind > CACS_POOL_LOCK_DISPATCH)
    return cacs__fail(EINVAL);
  memset(m, 0, sizeof *m);
  m->kind = kind;
  return 0;
}

// Lock for `me` (a task or NULL); returns an error number.
static int mutex_lock(cacs_pool_mutex *m, cacs__ptask *me, int64_t timeout_us) {
  void *self = self_id(me);
  spin_lock(&m->spin);
  if (!m->owner) {
    m->owner = self;
    spin_unlock(&m->spin);
    return 0;
  }
  if (m->owner == self) {
    spin_unlock(&m->spin);
    return EDEADLK;
  }
  if (timeout_us == 0) {
    spin_unlock(&m->spin);
    return ETIMEDOUT;
  }
  waiter w;
  w_init(&w, me, timeout_us);
  q_push(&m->waiters, &w);
  spins sp = {&m->spin, NULL};
  // The releaser makes us the owner before it wakes us.
  return wait_served(&w, &sp, deadline_of(timeout_us), cancel_remove, m);
}

int cacs_pool_mutex_lock(cacs_pool_mutex *m, int64_t timeout_us) {
  return ret(mutex_lock(m, cacs__pool_self(), timeout_us));
}

int cacs_pool_mutex_trylock(cacs_pool_mutex *m) {
  void *self = self_id(cacs__pool_self());
  spin_lock(&m->spin);
  int busy = m->owner != NULL;
  if (!busy)
    m->owner = self;
  spin_unlock(&m->spin);
  return busy ? cacs__fail(EBUSY) : 0;
}

// Release `m` (its spin lock held): ownership to the longest waiter, or
// unlocked. The waiter to run in place, if any, goes to *inplace.
static void mutex_release(cacs_pool_mutex *m, cacs__ptask **inplace) {
  waiter *w = q_pop(&m->waiters);
  if (!w) {
    m->owner = NULL; // Figure 3 and 6: no waiter, UNLOCKED
    return;
  }
  m->owner = w->self; // the lock passes, LOCKED throughout
  serve(w, 0, inplace);
}

int cacs_pool_mutex_unlock(cacs_pool_mutex *m) {
  void *self = self_id(cacs__pool_self());
  spin_lock(&m->spin);
  if (m->owner != self) {
    spin_unlock(&m->spin);
    return cacs__fail(EPERM);
  }
  cacs__ptask *next = NULL;
  int ces = m->kind == CACS_POOL_LOCK_CES;
  // Dispatch (Figure 3): executor.schedule(waiter), the caller goes on.
  // CES (Figure 6): executor.schedule(caller); waiter.resume().
  mutex_release(m, ces ? &next : NULL);
  spin_unlock(&m->spin);
  run_served(next, 1);
  return 0;
}

// --- condition variable ------------------------------------------------------

void cacs_pool_cond_init(cacs_pool_cond *c) { memset(c, 0, sizeof *c); }

// A condition waiter's timeout: still on the condition's queue, it gives
// up; already moved to the mutex's queue (signalled), it waits on for the
// mutex, without a deadline.
static int cancel_cond(void *obj, waiter *w) {
  cacs_pool_cond *c = obj;
  if (w->q != &c->waiters)
    return 0;
  q_remove(w->q, w);
  if (!c->waiters.head)
    c->mutex = NULL;
  return 1;
}

int cacs_pool_cond_wait(cacs_pool_cond *c, cacs_pool_mutex *m,
                        int64_t timeout_us) {
  cacs__ptask *me = cacs__pool_self();
  spins sp = {&c->spin, &m->spin};
  spins_lock(&sp);
  if (m->owner != self_id(me)) {
    spins_unlock(&sp);
    return cacs__fail(EPERM);
  }
  if (c->mutex && c->mutex != m) {
    spins_unlock(&sp);
    return cacs__fail(EINVAL);
  }
  c->mutex = m;
  waiter w;
  w_init(&w, me, timeout_us);
  q_push(&c->waiters, &w);
  // Dispatch-style release: the caller parks right below.
  mutex_release(m, NULL);
  int r = wait_served(&w, &sp, deadline_of(timeout_us), cancel_cond, c);
  if (r == 0)
    return 0; // served: a signal made us the owner of m
  // Timed out (or no timer): take the mutex back before returning.
  int lr;
  while ((lr = mutex_lock(m, me, CACS_POOL_FOREVER)) == ENOMEM)
    ;
  (void)lr;
  return cacs__fail(r);
}

// The paper's rule: the mutex held, the waiter joins its queue without
// waking; the mutex free, the waiter owns it and runs (*inplace).
static void cond_pass(cacs_pool_cond *c, waiter *w, cacs__ptask **inplace) {
  cacs_pool_mutex *m = c->mutex;
  if (m->owner) {
    q_push(&m->waiters, w);
  } else {
    m->owner = w->self;
    serve(w, 0, inplace);
  }
}

static void cond_notify(cacs_pool_cond *c, int all) {
  spin_lock(&c->spin);
  waiter *w = c->waiters.head;
  if (!w) {
    spin_unlock(&c->spin);
    return;
  }
  cacs_pool_mutex *m = c->mutex;
  spin_lock(&m->spin);
  cacs__ptask *next = NULL;
  int ces = m->kind == CACS_POOL_LOCK_CES;
  do {
    q_pop(&c->waiters);
    cond_pass(c, w, ces ? &next : NULL);
  } while (all && (w = c->waiters.head));
  if (!c->waiters.head)
    c->mutex = NULL;
  spin_unlock(&m->spin);
  spin_unlock(&c->spin);
  run_served(next, 1);
}

void cacs_pool_cond_signal(cacs_pool_cond *c) { cond_notify(c, 0); }
void cacs_pool_cond_broadcast(cacs_pool_cond *c) { cond_notify(c, 1); }

// --- reader-writer lock ------------------------------------------------------

int cacs_pool_rwlock_init(cacs_pool_rwlock *rw, unsigned kind) {
  if (kind > CACS_POOL_LOCK_DISPATCH)
    return cacs__fail(EINVAL);
  memset(rw, 0, sizeof *rw);
  rw->kind = kind;
  return 0;
}

// Grant the lock to the waiters at the head of the queue while they are
// compatible (a writer alone; readers up to the next writer); the first
// one granted may run in place.
static void rw_grant(cacs_pool_rwlock *rw, cacs__ptask **inplace) {
  waiter *w;
  while ((w = rw->waiters.head)) {
    if (w->kind == W_WRITER) {
      if (rw->writer || rw->readers)
        return;
      q_pop(&rw->waiters);
      rw->writer = w->self;
      serve(w, 0, inplace);
      return;
    }
    if (rw->writer)
      return;
    q_pop(&rw->waiters);
    rw->readers++;
    serve(w, 0, inplace);
  }
}

// A timed-out waiter leaves; the ones behind it may fit now (readers behind
// a writer that gave up).
static int cancel_rw(void *obj, waiter *w) {
  cacs_pool_rwlock *rw = obj;
  q_remove(w->q, w);
  rw_grant(rw, NULL);
  return 1;
}

static int rw_wait(cacs_pool_rwlock *rw, cacs__ptask *me, int kind,
                   int64_t timeout_us) {
  if (timeout_us == 0) {
    spin_unlock(&rw->spin);
    return ETIMEDOUT;
  }
  waiter w;
  w_init(&w, me, timeout_us);
  w.kind = kind;
  q_push(&rw->waiters, &w);
  spins sp = {&rw->spin, NULL};
  return wait_served(&w, &sp, deadline_of(timeout_us), cancel_rw, rw);
}

int cacs_pool_rwlock_rdlock(cacs_pool_rwlock *rw, int64_t timeout_us) {
  cacs__ptask *me = cacs__pool_self();
  spin_lock(&rw->spin);
  if (!rw->writer && !rw->waiters.head) {
    rw->readers++;
    spin_unlock(&rw->spin);
    return 0;
  }
  return ret(rw_wait(rw, me, W_READER, timeout_us));
}

int cacs_pool_rwlock_wrlock(cacs_pool_rwlock *rw, int64_t timeout_us) {
  cacs__ptask *me = cacs__pool_self();
  void *self = self_id(me);
  spin_lock(&rw->spin);
  if (!rw->writer && !rw->readers && !rw->waiters.head) {
    rw->writer = self;
    spin_unlock(&rw->spin);
    return 0;
  }
  if (rw->writer == self) {
    spin_unlock(&rw->spin);
    return cacs__fail(EDEADLK);
  }
  return ret(rw_wait(rw, me, W_WRITER, timeout_us));
}

int cacs_pool_rwlock_tryrdlock(cacs_pool_rwlock *rw) {
  spin_lock(&rw->spin);
  int ok = !rw->writer && !rw->waiters.head;
  if (ok)
    rw->readers++;
  spin_unlock(&rw->spin);
  return ok ? 0 : cacs__fail(EBUSY);
}

int cacs_pool_rwlock_trywrlock(cacs_pool_rwlock *rw) {
  void *self = self_id(cacs__pool_self());
  spin_lock(&rw->spin);
  int ok = !rw->writer && !rw->readers && !rw->waiters.head;
  if (ok)
    rw->writer = self;
  spin_unlock(&rw->spin);
  return ok ? 0 : cacs__fail(EBUSY);
}

int cacs_pool_rwlock_rdunlock(cacs_pool_rwlock *rw) {
  spin_lock(&rw->spin);
  if (rw->writer || !rw->readers) {
    spin_unlock(&rw->spin);
    return cacs__fail(EPERM);
  }
  cacs__ptask *next = NULL;
  int ces = rw->kind == CACS_POOL_LOCK_CES;
  // Other readers still in: the caller goes on. The last one out hands the
  // lock to the writer at the head (in place with CES).
  if (--rw->readers == 0)
    rw_grant(rw, ces ? &next : NULL);
  spin_unlock(&rw->spin);
  run_served(next, 1);
  return 0;
}

int cacs_pool_rwlock_wrunlock(cacs_pool_rwlock *rw) {
  void *self = self_id(cacs__pool_self());
  spin_lock(&rw->spin);
  if (rw->writer != self) {
    spin_unlock(&rw->spin);
    return cacs__fail(EPERM);
  }
  cacs__ptask *next = NULL;
  int ces = rw->kind == CACS_POOL_LOCK_CES;
  rw->writer = NULL;
  // The next writer, or the readers up to it (the first in place with CES).
  rw_grant(rw, ces ? &next : NULL);
  spin_unlock(&rw->spin);
  run_served(next, 1);
  return 0;
}

// --- semaphore ---------------------------------------------------------------

void cacs_pool_sem_init(cacs_pool_sem *s, uint64_t count) {
  memset(s, 0, sizeof *s);
  s->count = count;
}

int cacs_pool_sem_wait(cacs_pool_sem *s, int64_t timeout_us) {
  cacs__ptask *me = cacs__pool_self();
  spin_lock(&s->spin);
  if (s->count) {
    s->count--;
    spin_unlock(&s->spin);
    return 0;
  }
  if (timeout_us == 0) {
    spin_unlock(&s->spin);
    return cacs__fail(ETIMEDOUT);
  }
  waiter w;
  w_init(&w, me, timeout_us);
  q_push(&s->waiters, &w);
  spins sp = {&s->spin, NULL};
  return ret(wait_served(&w, &sp, deadline_of(timeout_us), cancel_remove, s));
}

int cacs_pool_sem_trywait(cacs_pool_sem *s) {
  spin_lock(&s->spin);
  int ok = s->count != 0;
  if (ok)
    s->count--;
  spin_unlock(&s->spin);
  return ok ? 0 : cacs__fail(EAGAIN);
}

void cacs_pool_sem_post(cacs_pool_sem *s) {
  spin_lock(&s->spin);
  cacs__ptask *next = NULL;
  waiter *w = q_pop(&s->waiters);
  if (w)
    serve(w, 0, &next); // the unit passes to the waiter
  else
    s->count++;
  spin_unlock(&s->spin);
  run_served(next, 1);
}

// --- wait group ------------------------------------------------------------

void cacs_pool_waitgroup_init(cacs_pool_waitgroup *wg) {
  memset(wg, 0, sizeof *wg);
}

void cacs_pool_waitgroup_add(cacs_pool_waitgroup *wg, int64_t n) {
  spin_lock(&wg->spin);
  wg->count += n;
  if (wg->count < 0) {
    fprintf(stderr, "cacs: pool wait group counter below 0\n");
    abort();
  }
  cacs__ptask *next = NULL;
  if (wg->count == 0) {
    waiter *w;
    while ((w = q_pop(&wg->waiters)))
      serve(w, 0, &next);
  }
  spin_unlock(&wg->spin);
  run_served(next, 1);
}

void cacs_pool_waitgroup_done(cacs_pool_waitgroup *wg) {
  cacs_pool_waitgroup_add(wg, -1);
}

int cacs_pool_waitgroup_wait(cacs_pool_waitgroup *wg, int64_t timeout_us) {
  cacs__ptask *me = cacs__pool_self();
  spin_lock(&wg->spin);
  if (wg->count == 0) {
    spin_unlock(&wg->spin);
    return 0;
  }
  if (timeout_us == 0) {
    spin_unlock(&wg->spin);
    return cacs__fail(ETIMEDOUT);
  }
  waiter w;
  w_init(&w, me, timeout_us);
  q_push(&wg->waiters, &w);
  spins sp = {&wg->spin, NULL};
  return ret(wait_served(&w, &sp, deadline_of(timeout_us), cancel_remove, wg));
}

// --- channel
// -------------------------------------------------------------------

struct cacs_pool_chan {
  uint32_t spin;
  int closed;
  size_t item_size, cap, head, len;
  cacs__pwaitq senders, receivers;
  unsigned char *buf;
};

cacs_pool_chan *cacs_pool_chan_create(size_t item_size, size_t capacity) {
  if (item_size == 0 || (capacity && item_size > SIZE_MAX / capacity)) {
    cacs__set_errno(EINVAL);
    return NULL;
  }
  cacs_pool_chan *ch = calloc(1, sizeof *ch);
  if (!ch)
    return NULL;
  ch->item_size = item_size;
  ch->cap = capacity;
  if (capacity && !(ch->buf = malloc(item_size * capacity))) {
    free(ch);
    return NULL;
  }
  return ch;
}

int cacs_pool_chan_destroy(cacs_pool_chan *ch) {
  spin_lock(&ch->spin);
  int busy = ch->senders.head || ch->receivers.head;
  spin_unlock(&ch->spin);
  if (busy)
    return cacs__fail(EBUSY);
  free(ch->buf);
  free(ch);
  return 0;
}

static unsigned char *slot(cacs_pool_chan *ch, size_t i) {
  return ch->buf + ((ch->head + i) % ch->cap) * ch->item_size;
}

int cacs_pool_chan_send(cacs_pool_chan *ch, const void *item,
                        int64_t timeout_us) {
  cacs__ptask *me = cacs__pool_self();
  spin_lock(&ch->spin);
  if (ch->closed) {
    spin_unlock(&ch->spin);
    return cacs__fail(EPIPE);
  }
  waiter *r = q_pop(&ch->receivers);
  if (r) { // only when the buffer is empty: straight into its buffer
    cacs__ptask *next = NULL;
    memcpy(r->item, item, ch->item_size);
    serve(r, 0, &next);
    spin_unlock(&ch->spin);
    run_served(next, 1);
    return 0;
  }
  if (ch->len < ch->cap) {
    memcpy(slot(ch, ch->len++), item, ch->item_size);
    spin_unlock(&ch->spin);
    return 0;
  }
  if (timeout_us == 0) {
    spin_unlock(&ch->spin);
    return cacs__fail(ETIMEDOUT);
  }
  waiter w;
  w_init(&w, me, timeout_us);
  w.item = (void *)item;
  q_push(&ch->senders, &w);
  spins sp = {&ch->spin, NULL};
  return ret(wait_served(&w, &sp, deadline_of(timeout_us), cancel_remove, ch));
}

int cacs_pool_chan_recv(cacs_pool_chan *ch, void *item, int64_t timeout_us) {
  cacs__ptask *me = cacs__pool_self();
  spin_lock(&ch->spin);
  cacs__ptask *next = NULL;
  if (ch->len) {
    memcpy(item, slot(ch, 0), ch->item_size);
    ch->head = (ch->head + 1) % ch->cap;
    ch->len--;
    waiter *s = q_pop(&ch->senders); // its item takes the freed room
    if (s) {
      memcpy(slot(ch, ch->len++), s->item, ch->item_size);
      serve(s, 0, &next);
    }
    spin_unlock(&ch->spin);
    run_served(next, 1);
    return 0;
  }
  waiter *s = q_pop(&ch->senders); // capacity 0: a rendezvous
  if (s) {
    memcpy(item, s->item, ch->item_size);
    serve(s, 0, &next);
    spin_unlock(&ch->spin);
    run_served(next, 1);
    return 0;
  }
  if (ch->closed) {
    spin_unlock(&ch->spin);
    return cacs__fail(EPIPE);
  }
  if (timeout_us == 0) {
    spin_unlock(&ch->spin);
    return cacs__fail(ETIMEDOUT);
  }
  waiter w;
  w_init(&w, me, timeout_us);
  w.item = item;
  q_push(&ch->receivers, &w);
  spins sp = {&ch->spin, NULL};
  return ret(wait_served(&w, &sp, deadline_of(timeout_us), cancel_remove, ch));
}

int cacs_pool_chan_close(cacs_pool_chan *ch) {
  spin_lock(&ch->spin);
  if (ch->closed) {
    spin_unlock(&ch->spin);
    return cacs__fail(EPIPE);
  }
  ch->closed = 1;
  waiter *w;
  while ((w = q_pop(&ch->senders)))
    serve(w, EPIPE, NULL);
  while ((w = q_pop(&ch->receivers)))
    serve(w, EPIPE, NULL);
  spin_unlock(&ch->spin);
  return 0;
}
