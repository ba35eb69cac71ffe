//===- lib/pool/pool_handles.c - Pool coroutines that may be joined -------===//
//
// Every handle cacs_pool_spawn has returned and cacs_pool_join has not yet
// freed, so that a join of a handle that is not one (joined already, never
// a pool coroutine's) aborts with a message naming the misuse, as
// cacs_join does (lib/join.c), instead of freeing it twice. Reading the
// handle itself to tell would read freed memory: the set is looked up by
// the pointer alone.
//
// A fixed table of buckets chained through the handles themselves (no
// allocation, so spawning cannot fail here), guarded by one spin lock per
// 64 buckets, so that workers spawning and joining at once rarely meet.
// A handle freed and then reused by a new spawn at the same address is
// the new coroutine's: that misuse is not caught (nor is it by cacs_join).
//
//===----------------------------------------------------------------------===//

#include "pool_internal.h"
#include "pool_spin.h"

#include <stdint.h>

#define NBUCKETS 4096u
#define PER_LOCK 64u

static cacs__ptask *bucket[NBUCKETS];
static struct {
  _Alignas(64) uint32_t spin;
} locks[NBUCKETS / PER_LOCK];

static unsigned bucket_of(const cacs__ptask *t) {
  return (unsigned)(((uintptr_t)t >> 6) * 0x9E3779B97F4A7C15ull >> 52) &
         (NBUCKETS - 1);
}

static uint32_t *lock_of(unsigned b) { return &locks[b / PER_LOCK].spin; }

void cacs__phandle_add(cacs__ptask *t) {
  unsigned b = bucket_of(t);
  spin_lock(lock_of(b));
  t->hnext = bucket[b];
  bucket[b] = t;
  spin_unlock(lock_of(b));
}

int cacs__phandle_claim(cacs__ptask *t) {
  unsigned b = bucket_of(t);
  int r = -1;
  spin_lock(lock_of(b));
  for (cacs__ptask *u = bucket[b]; u; u = u->hnext)
    if (u == t) {
      r = !t->claimed; // alive: the claimer takes it out before freeing
      t->claimed = 1;
      break;
    }
  spin_unlock(lock_of(b));
  return r;
}

void cacs__phandle_remove(cacs__ptask *t) {
  unsigned b = bucket_of(t);
  spin_lock(lock_of(b));
  for (cacs__ptask **p = &bucket[b]; *p; p = &(*p)->hnext)
    if (*p == t) {
      *p = t->hnext;
      break;
    }
  spin_unlock(lock_of(b));
}

// --- pools -------------------------------------------------------------------
// The pools created and not yet destroyed: few, created and destroyed
// rarely, so a list under a mutex; a destroy of one that is not there (a
// second destroy) aborts naming it rather than free it twice.

static pthread_mutex_t pools_lock = PTHREAD_MUTEX_INITIALIZER;
static cacs_pool *pools;

void cacs__ppool_add(cacs_pool *p) {
  pthread_mutex_lock(&pools_lock);
  p->next_pool = pools;
  pools = p;
  pthread_mutex_unlock(&pools_lock);
}

int cacs__ppool_remove(cacs_pool *p) {
  int found = 0;
  pthread_mutex_lock(&pools_lock);
  for (cacs_pool **q = &pools; *q; q = &(*q)->next_pool)
    if (*q == p) {
      *q = p->next_pool;
      found = 1;
      break;
    }
  pthread_mutex_unlock(&pools_lock);
  return found;
}
