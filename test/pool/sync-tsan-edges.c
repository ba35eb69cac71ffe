// A program built with ThreadSanitizer and linked with the ordinary
// (uninstrumented) libcacs protects plain data with each synchronization
// object of cacs/pool_sync.h, from pool coroutines on 2 workers. TSan does
// not see libcacs's atomics; the objects tell it their edges (their spin
// locks' acquire and release, lib/pool/pool_tsan.h): mutex unlock to lock
// (CES and dispatch), rwlock write-unlock to read-lock, sem post to wait,
// chan send to recv (buffered and rendezvous), waitgroup done to wait, cond
// signal to wake. Without them (seen: 5 runs of each mode) TSan reports a
// data race on this program's plain variables in every mode but
// rendezvous, in 2 to 5 of the runs: a race shows only when the two sides
// run on different workers at once, hence the rounds. A rendezvous always
// parks one side, and the pool's park-to-wake edge (pool.c) orders it
// already. The program's own flags are relaxed atomics, which order
// nothing for TSan.
//
// RUN: %clang -O1 -g -fsanitize=thread -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: env TSAN_OPTIONS=halt_on_error=1 %t ces 2>&1 | FileCheck %s --check-prefix=CES
// RUN: env TSAN_OPTIONS=halt_on_error=1 %t dispatch 2>&1 | FileCheck %s --check-prefix=DISPATCH
// RUN: env TSAN_OPTIONS=halt_on_error=1 %t rwlock 2>&1 | FileCheck %s --check-prefix=RWLOCK
// RUN: env TSAN_OPTIONS=halt_on_error=1 %t sem 2>&1 | FileCheck %s --check-prefix=SEM
// RUN: env TSAN_OPTIONS=halt_on_error=1 %t chan 2>&1 | FileCheck %s --check-prefix=CHAN
// RUN: env TSAN_OPTIONS=halt_on_error=1 %t rendezvous 2>&1 | FileCheck %s --check-prefix=RDV
// RUN: env TSAN_OPTIONS=halt_on_error=1 %t waitgroup 2>&1 | FileCheck %s --check-prefix=WG
// RUN: env TSAN_OPTIONS=halt_on_error=1 %t cond 2>&1 | FileCheck %s --check-prefix=COND
// CES-NOT: ThreadSanitizer
// CES: ces: counter 4800 of 4800
// DISPATCH-NOT: ThreadSanitizer
// DISPATCH: dispatch: counter 4800 of 4800
// RWLOCK-NOT: ThreadSanitizer
// RWLOCK: rwlock: counter 2400 of 2400, reads ok
// SEM-NOT: ThreadSanitizer
// SEM: sem: sum 80400 of 80400
// CHAN-NOT: ThreadSanitizer
// CHAN: chan: sum 80400 of 80400
// RDV-NOT: ThreadSanitizer
// RDV: rendezvous: sum 80400 of 80400
// WG-NOT: ThreadSanitizer
// WG: waitgroup: sum 144 of 144
// COND-NOT: ThreadSanitizer
// COND: cond: got 800 of 800

#include "cacs/pool.h"
#include "cacs/pool_sync.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TASKS = 6, ITERS = 200, ITEMS = 200, ROUNDS = 4 };

static cacs_pool *pool;
static cacs_pool_mutex mu;
static cacs_pool_rwlock rw;
static long counter;     // plain: guarded by mu / rw
static long slots[ITEMS]; // plain: written before a post / send / done
static _Atomic int bad;

static void spawn_all(void (*fn)(void *), int n, long *args) {
  cacs_pool_task *t[16];
  for (int i = 0; i < n; ++i)
    t[i] = cacs_pool_spawn(pool, fn, args ? &args[i] : NULL);
  for (int i = 0; i < n; ++i)
    cacs_pool_join(t[i]);
}

// --- mutex ---
static void mutex_body(void *arg) {
  (void)arg;
  for (int i = 0; i < ITERS; ++i) {
    cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER);
    counter++;
    cacs_pool_mutex_unlock(&mu);
  }
}

// --- rwlock ---
static void rw_writer(void *arg) {
  (void)arg;
  for (int i = 0; i < ITERS; ++i) {
    cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER);
    counter++;
    slots[i % ITEMS] = counter;
    cacs_pool_rwlock_wrunlock(&rw);
    if (i % 16 == 0)
      cacs_pool_yield();
  }
}
static void rw_reader(void *arg) {
  (void)arg;
  for (int i = 0; i < ITERS; ++i) {
    cacs_pool_rwlock_rdlock(&rw, CACS_POOL_FOREVER);
    if (slots[i % ITEMS] > counter)
      atomic_store_explicit(&bad, 1, memory_order_relaxed);
    cacs_pool_rwlock_rdunlock(&rw);
    if (i % 16 == 0)
      cacs_pool_yield();
  }
}

// --- sem: the producer fills slot i, then posts; the consumer waits, reads.
static cacs_pool_sem sem;
static long consumed;
static void sem_producer(void *arg) {
  (void)arg;
  for (int i = 0; i < ITEMS; ++i) {
    slots[i] = i + 1;
    cacs_pool_sem_post(&sem);
    if (i % 8 == 0)
      cacs_pool_yield();
  }
}
static void sem_consumer(void *arg) {
  (void)arg;
  for (int i = 0; i < ITEMS; ++i) {
    cacs_pool_sem_wait(&sem, CACS_POOL_FOREVER);
    consumed += slots[i];
    if (i % 5 == 0)
      cacs_pool_yield();
  }
}

// --- chan: a pointer to plain data filled by the sender. Buffered: the
// receiver waits (a relaxed count, no edge) until the item is in the
// buffer, so that neither side parks; a rendezvous always parks one side.
static cacs_pool_chan *ch;
static int buffered;
static _Atomic int sent;
static void chan_sender(void *arg) {
  (void)arg;
  for (int i = 0; i < ITEMS; ++i) {
    long *p = &slots[i];
    *p = i + 1;
    cacs_pool_chan_send(ch, &p, CACS_POOL_FOREVER);
    atomic_fetch_add_explicit(&sent, 1, memory_order_relaxed);
  }
}
static void chan_receiver(void *arg) {
  (void)arg;
  for (int i = 0; i < ITEMS; ++i) {
    for (int spin = 0; buffered && spin < 1000000 &&
                       atomic_load_explicit(&sent, memory_order_relaxed) <= i;
         ++spin)
      ;
    long *p;
    cacs_pool_chan_recv(ch, &p, CACS_POOL_FOREVER);
    consumed += *p;
  }
}

// --- waitgroup: each task fills its slot, then done; the waiter sums.
static cacs_pool_waitgroup wg;
static void wg_worker(void *arg) {
  long i = *(long *)arg;
  if (i % 2)
    cacs_pool_yield();
  slots[i] = i + 1;
  cacs_pool_waitgroup_done(&wg);
}
static void wg_waiter(void *arg) {
  (void)arg;
  cacs_pool_waitgroup_wait(&wg, CACS_POOL_FOREVER);
  for (int i = 0; i < 8; ++i)
    consumed += slots[i];
}

// --- cond: a value handed over under mu, the waiter woken by a signal.
static cacs_pool_cond cv;
static int full; // guarded by mu
static long got;
static void cond_producer(void *arg) {
  (void)arg;
  for (int i = 0; i < ITEMS; ++i) {
    cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER);
    while (full)
      cacs_pool_cond_wait(&cv, &mu, CACS_POOL_FOREVER);
    slots[0] = i + 1;
    full = 1;
    cacs_pool_cond_signal(&cv);
    cacs_pool_mutex_unlock(&mu);
  }
}
static void cond_consumer(void *arg) {
  (void)arg;
  for (int i = 0; i < ITEMS; ++i) {
    cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER);
    while (!full)
      cacs_pool_cond_wait(&cv, &mu, CACS_POOL_FOREVER);
    if (slots[0] == i + 1)
      got++;
    full = 0;
    cacs_pool_cond_signal(&cv);
    cacs_pool_mutex_unlock(&mu);
  }
}

static void pair(void (*a)(void *), void (*b)(void *)) {
  cacs_pool_task *x = cacs_pool_spawn(pool, a, NULL);
  cacs_pool_task *y = cacs_pool_spawn(pool, b, NULL);
  cacs_pool_join(x);
  cacs_pool_join(y);
}

// One round of mode `m`; the rounds repeat it, since a race is seen only
// when the two sides happen to run on different workers at once.
static void round_of(const char *m) {
  if (!strcmp(m, "ces") || !strcmp(m, "dispatch")) {
    cacs_pool_mutex_init(&mu, !strcmp(m, "ces") ? CACS_POOL_LOCK_CES
                                                : CACS_POOL_LOCK_DISPATCH);
    spawn_all(mutex_body, TASKS, NULL);
  } else if (!strcmp(m, "rwlock")) {
    cacs_pool_rwlock_init(&rw, CACS_POOL_LOCK_CES);
    cacs_pool_task *t[6];
    for (int i = 0; i < 6; ++i)
      t[i] = cacs_pool_spawn(pool, i % 2 ? rw_reader : rw_writer, NULL);
    for (int i = 0; i < 6; ++i)
      cacs_pool_join(t[i]);
  } else if (!strcmp(m, "sem")) {
    cacs_pool_sem_init(&sem, 0);
    pair(sem_producer, sem_consumer);
  } else if (!strcmp(m, "chan") || !strcmp(m, "rendezvous")) {
    buffered = !strcmp(m, "chan");
    atomic_store(&sent, 0);
    ch = cacs_pool_chan_create(sizeof(long *), buffered ? ITEMS : 0);
    pair(chan_sender, chan_receiver);
    cacs_pool_chan_destroy(ch);
  } else if (!strcmp(m, "waitgroup")) {
    cacs_pool_waitgroup_init(&wg);
    cacs_pool_waitgroup_add(&wg, 8);
    long idx[8];
    for (int i = 0; i < 8; ++i)
      idx[i] = i;
    cacs_pool_task *w = cacs_pool_spawn(pool, wg_waiter, NULL);
    spawn_all(wg_worker, 8, idx);
    cacs_pool_join(w);
  } else if (!strcmp(m, "cond")) {
    cacs_pool_mutex_init(&mu, CACS_POOL_LOCK_CES);
    cacs_pool_cond_init(&cv);
    pair(cond_producer, cond_consumer);
  }
}

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "ces";
  // Its running coroutines must move: it opts in.
  cacs_pool_attr attr = {2, 0, CACS_POOL_MIGRATE_RUNNING};
  pool = cacs_pool_create_ex(&attr);
  for (int r = 0; r < ROUNDS; ++r)
    round_of(m);
  cacs_pool_destroy(pool);
  int sum = ROUNDS * ITEMS * (ITEMS + 1) / 2;
  if (!strcmp(m, "ces") || !strcmp(m, "dispatch"))
    printf("%s: counter %ld of %d\n", m, counter, ROUNDS * TASKS * ITERS);
  else if (!strcmp(m, "rwlock"))
    printf("rwlock: counter %ld of %d, reads %s\n", counter,
           ROUNDS * 3 * ITERS, atomic_load(&bad) ? "BAD" : "ok");
  else if (!strcmp(m, "waitgroup"))
    printf("waitgroup: sum %ld of %d\n", consumed, ROUNDS * 36);
  else if (!strcmp(m, "cond"))
    printf("cond: got %ld of %d\n", got, ROUNDS * ITEMS);
  else
    printf("%s: sum %ld of %d\n", m, consumed, sum);
  return 0;
}
