//===- lib/pool/pool_handles.c - Pool coroutines that may be joined -------===//
//
// Every handle cacs_pool_spawn has returned and cacs_pool_join has not yet
// freed, so that a join of a handle that is not one (joined already, never
// a pool coroutine's) aborts with a message naming the misuse, as
// cacs_join does (lib/join.c), instead of freeing it twice. Reading the
// handle itself to tell would read freed memory: the set is looked up by
// the pointer alone.
//
// A table of buckets chained through the handles themselves, guarded by
// 64 spin locks (stripes), so that workers spawning and joining at once
// rarely meet. A handle's stripe is the top 6 bits of its hash, its bucket
// the top `bits`: a bucket stays in its stripe whatever the table's size.
// The table grows with the handles alive, as coro.c's live set does: a
// fixed one (4,096 buckets until session 30) walked chains of 244 handles
// per join with a million parked coroutines, each a cache miss, 25 us a
// join (bench/stackbound/pool.c). A stripe counts its handles; one past
// twice its buckets doubles the table, one below an eighth halves it (not
// below the first 4,096, which are static: spawning never fails here, and
// a table that cannot grow only walks longer chains). The resize holds
// every stripe and walks every chain once: amortized, a few handles per
// spawn or join.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "pool_internal.h"
#include "pool_spin.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

enum { STRIPE_BITS = 6, NSTRIPES = 1 << STRIPE_BITS, MIN_BITS = 12 };
// Past this, a table of 8 bytes a bucket holds a handle a bucket on average
// of 2^36 handles: not reached.
enum { MAX_BITS = 36 };

static cacs__ptask *first_table[1u << MIN_BITS];
static struct {
  _Alignas(64) uint32_t spin;
  uint32_t n; // handles in the stripe's buckets
} stripes[NSTRIPES];
// Read under any stripe's lock, written under all of them.
static cacs__ptask **table = first_table;
static unsigned bits = MIN_BITS;

static uint64_t hash(const cacs__ptask *t) {
  return ((uintptr_t)t >> 4) * 0x9E3779B97F4A7C15ull;
}

static unsigned stripe_of(uint64_t h) {
  return (unsigned)(h >> (64 - STRIPE_BITS));
}

// The bucket of `h` (under a stripe's lock).
static cacs__ptask **bucket(uint64_t h) { return &table[h >> (64 - bits)]; }

static uint32_t *lock_of(uint64_t h) { return &stripes[stripe_of(h)].spin; }

// --- resizing ------------------------------------------------------------

static cacs__ptask **table_alloc(unsigned b) {
  if (b == MIN_BITS)
    return first_table; // (unused while the table is larger)
  void *p = mmap(NULL, sizeof(cacs__ptask *) << b, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : (cacs__ptask **)p;
}

static void table_free(cacs__ptask **t, unsigned b) {
  if (t != first_table)
    munmap(t, sizeof(cacs__ptask *) << b);
}

struct resize {
  unsigned from, to;
};

// On the thread's own stack (cacs__deep_call): spawn and join carry the
// pool's wait budget, which the mapping's system calls are not in.
static void resize_deep(void *arg) {
  const struct resize *r = arg;
  cacs__ptask **nt = table_alloc(r->to);
  if (!nt)
    return; // longer chains, still right
  for (unsigned i = 0; i < NSTRIPES; ++i)
    spin_lock(&stripes[i].spin);
  cacs__ptask **old = table;
  unsigned old_bits = bits;
  if (old_bits == r->from) { // (else another thread resized it first)
    if (nt == first_table)
      memset(nt, 0, sizeof first_table);
    for (size_t i = 0; i < (size_t)1 << old_bits; ++i)
      for (cacs__ptask *t = old[i], *next; t; t = next) {
        next = t->hnext;
        cacs__ptask **b = &nt[hash(t) >> (64 - r->to)];
        t->hnext = *b;
        *b = t;
      }
    table = nt;
    bits = r->to;
  }
  for (unsigned i = NSTRIPES; i-- > 0;)
    spin_unlock(&stripes[i].spin);
  if (old_bits == r->from)
    table_free(old, old_bits);
  else
    table_free(nt, r->to);
}

// Out of line and cold: the spawns and joins that resize nothing, nearly
// all, keep no register for it.
__attribute__((noinline, cold)) static void resize(unsigned from, unsigned to) {
  struct resize r = {from, to};
  cacs__deep_call(resize_deep, &r);
}

void cacs__phandle_add(cacs__ptask *t) {
  uint64_t h = hash(t);
  uint32_t *l = lock_of(h);
  spin_lock(l);
  cacs__ptask **b = bucket(h);
  t->hnext = *b;
  *b = t;
  unsigned now = bits;
  int grow =
      ++stripes[stripe_of(h)].n > 2u << (now - STRIPE_BITS) && now < MAX_BITS;
  spin_unlock(l);
  if (__builtin_expect(grow, 0))
    resize(now, now + 1);
}

int cacs__phandle_claim(cacs__ptask *t) {
  uint64_t h = hash(t);
  uint32_t *l = lock_of(h);
  int r = -1;
  spin_lock(l);
  for (cacs__ptask *u = *bucket(h); u; u = u->hnext)
    if (u == t) {
      r = !t->claimed; // alive: the claimer takes it out before freeing
      t->claimed = 1;
      break;
    }
  spin_unlock(l);
  return r;
}

void cacs__phandle_remove(cacs__ptask *t) {
  uint64_t h = hash(t);
  uint32_t *l = lock_of(h);
  spin_lock(l);
  unsigned now = bits;
  for (cacs__ptask **p = bucket(h); *p; p = &(*p)->hnext)
    if (*p == t) {
      *p = t->hnext;
      stripes[stripe_of(h)].n--;
      break;
    }
  int shrink =
      now > MIN_BITS && 8 * stripes[stripe_of(h)].n < 1u << (now - STRIPE_BITS);
  spin_unlock(l);
  if (__builtin_expect(shrink, 0))
    resize(now, now - 1);
}

void cacs__phandle_shape(size_t *buckets, size_t *longest) {
  for (unsigned i = 0; i < NSTRIPES; ++i)
    spin_lock(&stripes[i].spin);
  size_t most = 0;
  for (size_t i = 0; i < (size_t)1 << bits; ++i) {
    size_t len = 0;
    for (cacs__ptask *t = table[i]; t; t = t->hnext)
      ++len;
    if (len > most)
      most = len;
  }
  *buckets = (size_t)1 << bits;
  *longest = most;
  for (unsigned i = NSTRIPES; i-- > 0;)
    spin_unlock(&stripes[i].spin);
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
