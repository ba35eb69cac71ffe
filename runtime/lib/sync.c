//===- lib/sync.c - Mutex, condvar, semaphore, wait group, channel -------===//
//
// Every primitive is a FIFO of waiter records (struct cacs__waiter) living on
// the waiters' stacks. A release takes the first record off the queue, hands
// it the resource (mutex ownership, a semaphore unit, a channel item), marks
// it done and wakes its coroutine. A waiter decides what happened from its
// record alone, never from why it was woken: `done` set means it was served
// (even if its timer fired at the same moment), `done` clear means a timeout
// or a stray cacs_wake, and in the first case it takes its record off the
// queue itself. So no wake-up is lost and no resource is handed out twice.
//
// The shared objects (cacs_xsem, CACS_CHAN_SHARED channels) run the same
// code under a pthread mutex; their waiters are also registered with the
// core's cross-thread inbox (lib/sched.h), and a waker on another thread
// posts them there instead of calling cacs_wake. The waker touches a record
// only while it holds the object's lock, and a waiter leaves only after
// taking that lock, so a record is never used after its wait returned.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#define CACS__DEFINE_PN_ENTRIES 1 // the waits below are the entries (sync.h)
#include "cacs/sync.h"
#include "errors.h"
#include "sched.h"
#include "waitq.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct cacs__waiter {
  struct cacs__waiter *next, *prev;
  cacs_coro *coro;
  void *item; // channel: the sender's item / the receiver's buffer
  int done;   // set by the waker after it took the record off the queue
  int result; // with done: 0, or EPIPE (channel closed)
  int shared; // an xwaiter whose xw is registered: wake through cacs__xwake
};
typedef struct cacs__waiter waiter;

// The record of a wait on a shared object (a lock `l`): registered with
// the inbox too (sched.h), by a record whose links and coroutine are the
// waiter's own (cacs__xwait ends with them). The two pairs of links are
// never in use together: the waker takes the waiter off the object's
// queue before it posts the record to the inbox, and a waiter that leaves
// unserved was never posted. Only the shared objects' waits hold one, 16
// bytes longer than a waiter: the waits' frames stay small while they
// park (the waits' stack budget, cacs/detail/contract.h).
typedef union xwaiter {
  cacs__xwait xw;
  struct {
    char head[offsetof(cacs__xwait, next)];
    waiter w;
  } x;
} xwaiter;
_Static_assert(offsetof(xwaiter, xw.next) == offsetof(xwaiter, x.w.next) &&
                   offsetof(xwaiter, xw.prev) == offsetof(xwaiter, x.w.prev) &&
                   offsetof(xwaiter, xw.coro) == offsetof(xwaiter, x.w.coro),
               "an xwaiter's inbox record shares the waiter's links");

static cacs__xwait *xw_of(waiter *w) {
  return (cacs__xwait *)((char *)w - offsetof(xwaiter, x.w));
}

// A lock for the shared objects; NULL for the one-thread ones.
typedef pthread_mutex_t *lock_t;

static void lock(lock_t l) {
  if (l)
    pthread_mutex_lock(l);
}

static void unlock(lock_t l) {
  if (l)
    pthread_mutex_unlock(l);
}

// --- waiter queues -------------------------------------------------------

static void q_push(cacs__waitq *q, waiter *w) { CACS__WAITQ_PUSH(q, w); }

static void q_remove(cacs__waitq *q, waiter *w) { CACS__WAITQ_REMOVE(q, w); }

static waiter *q_pop(cacs__waitq *q) {
  waiter *w = q->head;
  if (w)
    q_remove(q, w);
  return w;
}

// Serve a waiter already taken off its queue: it returns `result`.
static void serve(waiter *w, int result) {
  w->result = result;
  w->done = 1;
  if (w->shared)
    cacs__xwake(xw_of(w));
  else
    cacs_wake(w->coro);
}

static void serve_all(cacs__waitq *q, int result) {
  waiter *w;
  while ((w = q_pop(q)))
    serve(w, result);
}

// --- waiting ---------------------------------------------------------------

// Queue `w` (an xwaiter if `l`) on `q` and wait until a waker serves it or
// `timeout_us` passes. Called and returns with `l` held. Returns the
// result the waker gave, or ETIMEDOUT / ENOMEM with `w` off the queue
// again. timeout_us != 0. Inlined into the entries (preserve_none,
// cacs/sync.h): a function of the default convention between would save
// the six callee-saved registers for them below the park (the waits'
// stack budget, cacs/detail/contract.h). A timed wait parks on the
// deadline fixed here, after a stray wake-up too: what stays in the frame
// while it parks is the queue, the lock and the deadline besides the
// record, and the clock is read once, and again only after a stray
// wake-up.
static inline __attribute__((always_inline)) int
wait_rec(cacs__waitq *q, waiter *w, int64_t timeout_us, lock_t l) {
  w->coro = cacs_self();
  w->done = 0;
  w->result = 0;
  w->shared = l != NULL;
  if (l && cacs__xwait_begin(xw_of(w)) != 0)
    return ENOMEM;
  q_push(q, w);
  uint64_t deadline = timeout_us < 0 ? 0 : cacs__deadline_in(timeout_us);
  int r;
  for (;;) {
    unlock(l);
    int pr = 0;
    if (!deadline)
      (void)cacs_park_timeout(CACS_FOREVER); // no timer: only a wake
    else
      pr = cacs__park_until(deadline);
    lock(l);
    if (w->done) {
      r = w->result; // served: wins over a timeout in the same instant
      break;
    }
    // Woken but not served (pr 0): a stray cacs_wake. Wait for the rest,
    // unless the deadline passed meanwhile: parking again would arm a
    // timer on it for the service coroutine's next round, one switch more
    // for the same ETIMEDOUT. The clock is read off the stack, as for the
    // deadline (cacs__wait_now_ns: the waits' stack budget).
    if (pr == 0 && deadline && cacs__wait_now_ns() >= deadline)
      pr = ETIMEDOUT;
    if (pr != 0) { // ETIMEDOUT or ENOMEM, and nobody served us
      q_remove(q, w);
      r = pr;
      break;
    }
  }
  if (l)
    cacs__xwait_end(xw_of(w));
  return r;
}

// wait_rec on the caller's record `w`, except in a coroutine on a shared
// stack: its frames are copied out while it waits and others write the
// record then (cacs/stack.h), so it waits on a copy in the heap, with room
// for the channel item `w->item` points at (`item_size` bytes; 0: none),
// which a sender copies in before and a receiver (`recv`) copies out after.
// The heap record is kept for the thread's next such wait (one spare per
// thread, up to SPARE_MAX bytes, freed at thread exit): a round of waits
// of shared-stack coroutines then allocates nothing.
#define SPARE_MAX 1024
static __thread xwaiter *spare;
static __thread size_t spare_size;
static __thread unsigned char spare_armed; // spare_key set on this thread
static pthread_key_t spare_key; // its destructor frees the thread's spare
static pthread_once_t spare_once = PTHREAD_ONCE_INIT;

static void spare_exit(void *unused) {
  (void)unused;
  free(spare);
  spare = NULL;
}

static void spare_key_init(void) {
  if (pthread_key_create(&spare_key, spare_exit) != 0)
    spare_key = (pthread_key_t)-1;
}

static xwaiter *heap_rec_get(size_t size) {
  xwaiter *h = spare;
  if (h && spare_size >= size) {
    spare = NULL;
    return h;
  }
  return (xwaiter *)malloc(size);
}

static void heap_rec_put(xwaiter *h, size_t size) {
  if (size > SPARE_MAX || (spare && spare_size >= size)) {
    free(h);
    return;
  }
  if (!spare_armed) { // the thread's first spare arms the destructor
    pthread_once(&spare_once, spare_key_init);
    if (spare_key == (pthread_key_t)-1 ||
        pthread_setspecific(spare_key, (void *)1) != 0) {
      free(h);
      return;
    }
    spare_armed = 1;
  }
  if (spare)
    free(spare);
  spare = h;
  spare_size = size;
}

static __attribute__((noinline, cold)) int wait_heap(cacs__waitq *q, waiter *w,
                                                     int64_t timeout_us,
                                                     lock_t l, size_t item_size,
                                                     int recv) {
  xwaiter *x = heap_rec_get(sizeof *x + item_size); // an xwaiter if `l`
  if (!x)
    return ENOMEM;
  waiter *h = &x->x.w;
  h->item = item_size ? (void *)(x + 1) : NULL;
  if (item_size && !recv)
    memcpy(h->item, w->item, item_size);
  int r = wait_rec(q, h, timeout_us, l);
  if (item_size && recv && r == 0)
    memcpy(w->item, h->item, item_size);
  heap_rec_put(x, sizeof *x + item_size);
  return r;
}

static inline __attribute__((always_inline)) int
wait_item(cacs__waitq *q, waiter *w, int64_t timeout_us, lock_t l,
          size_t item_size, int recv) {
  if (__builtin_expect(cacs__self_unshared() != NULL, 1))
    return wait_rec(q, w, timeout_us, l);
  return wait_heap(q, w, timeout_us, l, item_size, recv);
}

static inline __attribute__((always_inline)) int
wait_on(cacs__waitq *q, waiter *w, int64_t timeout_us, lock_t l) {
  return wait_item(q, w, timeout_us, l, 0, 0);
}

// The public calls return 0, or -1 with errno set (runtime/README.md,
// "Errors"); inside, results are error numbers, as waiters are served.
static inline int ret(int e) {
  if (__builtin_expect(e != 0, 0))
    return cacs__fail(e);
  return 0;
}

// --- mutex -------------------------------------------------------------------

void cacs_mutex_init(cacs_mutex *m) { memset(m, 0, sizeof *m); }

// cacs_mutex_lock waiting, if it must, on the caller's record `w`: one
// record for cacs_cond_wait's wait and its relock, where two would lie in
// its frame side by side (the waits' stack budget, cacs/detail/contract.h).
static inline __attribute__((always_inline)) int
mutex_lock_on(cacs_mutex *m, int64_t timeout_us, waiter *w) {
  cacs_coro *self = cacs_self();
  if (!m->owner) {
    m->owner = self;
    return 0;
  }
  if (m->owner == self)
    return EDEADLK;
  if (timeout_us == 0)
    return ETIMEDOUT;
  // The unlocker makes us the owner before it wakes us (handoff).
  return wait_on(&m->waiters, w, timeout_us, NULL);
}

int cacs_mutex_lock(cacs_mutex *m, int64_t timeout_us) {
  waiter w;
  return ret(mutex_lock_on(m, timeout_us, &w));
}

int cacs_mutex_trylock(cacs_mutex *m) {
  if (m->owner)
    return ret(EBUSY);
  m->owner = cacs_self();
  return 0;
}

int cacs_mutex_unlock(cacs_mutex *m) {
  if (m->owner != cacs_self())
    return ret(EPERM);
  waiter *w = q_pop(&m->waiters);
  m->owner = w ? w->coro : NULL;
  if (w)
    serve(w, 0);
  return 0;
}

// --- condition variable ------------------------------------------------------

void cacs_cond_init(cacs_cond *c) { memset(c, 0, sizeof *c); }

int cacs_cond_wait(cacs_cond *c, cacs_mutex *m, int64_t timeout_us) {
  if (m->owner != cacs_self())
    return ret(EPERM);
  waiter w;
  // The unlock only readies the next owner; it runs after wait_on queued
  // us, so a signal it sends finds us.
  cacs_mutex_unlock(m);
  int r =
      timeout_us == 0 ? ETIMEDOUT : wait_on(&c->waiters, &w, timeout_us, NULL);
  // Take the mutex back whatever happened (stray wakes are retried inside),
  // waiting on the same record.
  while (mutex_lock_on(m, CACS_FOREVER, &w) != 0) {
  }
  return ret(r);
}

void cacs_cond_signal(cacs_cond *c) {
  waiter *w = q_pop(&c->waiters);
  if (w)
    serve(w, 0);
}

void cacs_cond_broadcast(cacs_cond *c) { serve_all(&c->waiters, 0); }

// --- semaphore (one-thread and shared) ----------------------------------

// On the caller's record `w` (an xwaiter if `l`).
static inline __attribute__((always_inline)) int
sem_wait(cacs_sem *s, int64_t timeout_us, lock_t l, waiter *w) {
  lock(l);
  int r;
  if (s->count > 0) { // units are only free while nobody waits
    s->count--;
    r = 0;
  } else if (timeout_us == 0) {
    r = ETIMEDOUT;
  } else {
    r = wait_on(&s->waiters, w, timeout_us, l); // the poster hands a unit
  }
  unlock(l);
  return r;
}

static void sem_post(cacs_sem *s, lock_t l) {
  lock(l);
  waiter *w = q_pop(&s->waiters);
  if (w)
    serve(w, 0);
  else
    s->count++;
  unlock(l);
}

void cacs_sem_init(cacs_sem *s, uint64_t count) {
  memset(s, 0, sizeof *s);
  s->count = count;
}
int cacs_sem_wait(cacs_sem *s, int64_t timeout_us) {
  waiter w;
  return ret(sem_wait(s, timeout_us, NULL, &w));
}
int cacs_sem_trywait(cacs_sem *s) {
  return ret(sem_wait(s, 0, NULL, NULL) == 0 ? 0 : EAGAIN);
}
void cacs_sem_post(cacs_sem *s) { sem_post(s, NULL); }

int cacs_xsem_init(cacs_xsem *s, uint64_t count) {
  cacs_sem_init(&s->sem, count);
  return ret(pthread_mutex_init(&s->lock, NULL));
}
void cacs_xsem_destroy(cacs_xsem *s) { pthread_mutex_destroy(&s->lock); }
int cacs_xsem_wait(cacs_xsem *s, int64_t timeout_us) {
  xwaiter x;
  return ret(sem_wait(&s->sem, timeout_us, &s->lock, &x.x.w));
}
int cacs_xsem_trywait(cacs_xsem *s) {
  return ret(sem_wait(&s->sem, 0, &s->lock, NULL) == 0 ? 0 : EAGAIN);
}
void cacs_xsem_post(cacs_xsem *s) { sem_post(&s->sem, &s->lock); }

// --- wait group
// ----------------------------------------------------------------

void cacs_waitgroup_init(cacs_waitgroup *wg) { memset(wg, 0, sizeof *wg); }

void cacs_waitgroup_add(cacs_waitgroup *wg, int64_t n) {
  wg->count += n;
  if (wg->count < 0) {
    static const char msg[] = "cacs: wait group counter below 0\n";
    ssize_t r = write(2, msg, sizeof msg - 1);
    (void)r;
    abort();
  }
  if (wg->count == 0)
    serve_all(&wg->waiters, 0);
}

void cacs_waitgroup_done(cacs_waitgroup *wg) { cacs_waitgroup_add(wg, -1); }

int cacs_waitgroup_wait(cacs_waitgroup *wg, int64_t timeout_us) {
  if (wg->count == 0)
    return 0;
  if (timeout_us == 0)
    return ret(ETIMEDOUT);
  waiter w;
  return ret(wait_on(&wg->waiters, &w, timeout_us, NULL));
}

// --- channel
// -------------------------------------------------------------------
//
// A waiter that was served is off the queue, but has not returned yet: the
// one-thread calls never touch the channel after their wait (`l` is a
// copy), so the server may destroy it at once (a one-shot reply channel);
// a shared channel stays busy until the waiter has taken the lock again
// and left (`inside`).
//
// Invariants (under the lock): receivers wait only while the buffer is
// empty and no sender waits; senders wait only while the buffer is full
// (always, for capacity 0) and no receiver waits; nobody waits once closed.

struct cacs_chan {
  size_t item_size, cap;
  size_t head, count; // ring buffer: `count` items from slot `head`
  int closed;
  // Shared channels: coroutines inside a wait on it, queued or served but
  // not back yet (a served waiter takes the lock again before it returns).
  size_t inside;
  lock_t lock; // &mutex for CACS_CHAN_SHARED, else NULL
  pthread_mutex_t mutex;
  cacs__waitq senders, receivers;
  _Alignas(16) unsigned char buf[];
};

static unsigned char *slot(cacs_chan *ch, size_t i) {
  return ch->buf + ((ch->head + i) % ch->cap) * ch->item_size;
}

cacs_chan *cacs_chan_create(size_t item_size, size_t capacity, unsigned flags) {
  if (item_size == 0 || (capacity && item_size > SIZE_MAX / capacity) ||
      (flags & ~(unsigned)CACS_CHAN_SHARED)) {
    cacs__set_errno(EINVAL);
    return NULL;
  }
  size_t bytes = item_size * capacity;
  if (bytes > SIZE_MAX - sizeof(cacs_chan)) {
    cacs__set_errno(ENOMEM);
    return NULL;
  }
  cacs_chan *ch = (cacs_chan *)calloc(1, sizeof(cacs_chan) + bytes);
  if (!ch)
    return NULL;
  ch->item_size = item_size;
  ch->cap = capacity;
  if (flags & CACS_CHAN_SHARED) {
    int e = pthread_mutex_init(&ch->mutex, NULL);
    if (e) {
      free(ch);
      cacs__set_errno(e);
      return NULL;
    }
    ch->lock = &ch->mutex;
  }
  return ch;
}

int cacs_chan_destroy(cacs_chan *ch) {
  lock(ch->lock);
  int busy = ch->senders.head || ch->receivers.head || ch->inside;
  unlock(ch->lock);
  if (busy)
    return ret(EBUSY);
  if (ch->lock)
    pthread_mutex_destroy(ch->lock);
  free(ch);
  return 0;
}

// wait_on for a channel's call, on a record for `item` (the sender's
// item, the receiver's buffer); called and returns with the lock held.
// The channel may be gone when a one-thread waiter returns.
static inline __attribute__((always_inline)) int
chan_wait(cacs_chan *ch, cacs__waitq *q, void *item, int64_t timeout_us) {
  lock_t l = ch->lock;
  size_t size = ch->item_size;
  int recv = q == &ch->receivers;
  if (!l) {
    waiter w;
    w.item = item;
    return wait_item(q, &w, timeout_us, NULL, size, recv);
  }
  xwaiter x;
  x.x.w.item = item;
  ch->inside++;
  int r = wait_item(q, &x.x.w, timeout_us, l, size, recv);
  ch->inside--;
  return r;
}

int cacs_chan_send(cacs_chan *ch, const void *item, int64_t timeout_us) {
  lock_t l = ch->lock;
  lock(l);
  int r = 0;
  waiter *w;
  if (ch->closed) {
    r = EPIPE;
  } else if ((w = q_pop(&ch->receivers))) { // buffer empty: hand it over
    memcpy(w->item, item, ch->item_size);
    serve(w, 0);
  } else if (ch->count < ch->cap) {
    memcpy(slot(ch, ch->count++), item, ch->item_size);
  } else if (timeout_us == 0) {
    r = ETIMEDOUT;
  } else {
    // A receiver copies the item out, then serves us.
    r = chan_wait(ch, &ch->senders, (void *)item, timeout_us);
  }
  unlock(l);
  return ret(r);
}

int cacs_chan_recv(cacs_chan *ch, void *item, int64_t timeout_us) {
  lock_t l = ch->lock;
  lock(l);
  int r = 0;
  waiter *w;
  if (ch->count > 0) {
    memcpy(item, slot(ch, 0), ch->item_size);
    ch->head = (ch->head + 1) % ch->cap;
    ch->count--;
    if ((w = q_pop(&ch->senders))) { // the freed slot goes to the next sender
      memcpy(slot(ch, ch->count++), w->item, ch->item_size);
      serve(w, 0);
    }
  } else if ((w = q_pop(&ch->senders))) { // capacity 0: straight from it
    memcpy(item, w->item, ch->item_size);
    serve(w, 0);
  } else if (ch->closed) {
    r = EPIPE;
  } else if (timeout_us == 0) {
    r = ETIMEDOUT;
  } else {
    // A sender copies into `item`, then serves us.
    r = chan_wait(ch, &ch->receivers, item, timeout_us);
  }
  unlock(l);
  return ret(r);
}

int cacs_chan_close(cacs_chan *ch) {
  lock(ch->lock);
  int r = ch->closed ? EPIPE : 0;
  ch->closed = 1;
  serve_all(&ch->receivers, EPIPE);
  serve_all(&ch->senders, EPIPE);
  unlock(ch->lock);
  return ret(r);
}

size_t cacs_chan_len(cacs_chan *ch) {
  lock(ch->lock);
  size_t n = ch->count;
  unlock(ch->lock);
  return n;
}
size_t cacs_chan_cap(const cacs_chan *ch) { return ch->cap; }
size_t cacs_chan_item_size(const cacs_chan *ch) { return ch->item_size; }

// The default-convention symbols of the entries above (sync.h).
CACS__DEFAULT_ENTRY(int, mutex_lock, cacs_mutex_lock,
                    (cacs_mutex * m, int64_t t), (m, t))
CACS__DEFAULT_ENTRY(int, cond_wait, cacs_cond_wait,
                    (cacs_cond * c, cacs_mutex *m, int64_t t), (c, m, t))
CACS__DEFAULT_ENTRY(int, sem_wait, cacs_sem_wait, (cacs_sem * s, int64_t t),
                    (s, t))
CACS__DEFAULT_ENTRY(int, waitgroup_wait, cacs_waitgroup_wait,
                    (cacs_waitgroup * wg, int64_t t), (wg, t))
CACS__DEFAULT_ENTRY(int, chan_send, cacs_chan_send,
                    (cacs_chan * ch, const void *item, int64_t t),
                    (ch, item, t))
CACS__DEFAULT_ENTRY(int, chan_recv, cacs_chan_recv,
                    (cacs_chan * ch, void *item, int64_t t), (ch, item, t))
CACS__DEFAULT_ENTRY(int, xsem_wait, cacs_xsem_wait, (cacs_xsem * s, int64_t t),
                    (s, t))
