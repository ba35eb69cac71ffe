//===- bench/locks/locks.h - The CES paper's lock microbenchmark -*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The task of the CES paper's Figure 8, shared by every C and C++ peer
// (bench/locks/go/main.go is the same program in Go):
//
//   loop until the window closes:
//     p = a random prime from PRIMES
//     lock; map.insert(p); pad the critical section to CS ns; unlock
//     sieve of Eratosthenes up to p          (the parallel part)
//
// The reader-writer variant (-W PERCENT) takes the write lock for PERCENT %
// of the iterations (insert) and the read lock for the rest (a lookup),
// both padded alike.
//
// Throughput is the iterations finished inside a fixed window (-d ms, from
// just before the tasks are spawned) divided by the window, in Mops/s. Each
// task reads the clock itself after each iteration, so the measurement
// needs no coordinator that a cooperative scheduler might never run.
//
// Correctness: the critical section also bumps a plain (non-atomic) counter
// and the map's total; at the end both must equal the sum of the tasks'
// iteration counts, else the binary prints ok=0 and exits 2 (a broken lock
// never posts a number). Reads check that a key they find maps to itself.
//
// Command line (every peer):
//   -w WORKERS  threads running tasks (default 1)      -t TASKS (5000)
//   -c CS_NS    critical-section padding in ns (0)     -d MS window (1000)
//   -W PERCENT  reader-writer variant, writers in % (default: plain mutex)
//   -v VARIANT  the implementation, when a binary has several
//   -s LIMIT    primes are drawn from [LIMIT/2, LIMIT) (default 4096)
//   -k SHAPE    `fig8` (the task above, default) or `counter`: the shape of
//               a counter, a cache or a connection table behind a lock:
//                 N times: lock; 16 updates of a shared array; pad to
//                 CS ns; unlock; 20 dependent operations outside
//               every task does the same number of lock pairs (-n), and
//               throughput is lock pairs over the wall-clock time from
//               spawning the first task to joining the last (-d unused)
//   -n ITERS    counter: lock pairs per task (default 20,000, fewer for
//               long critical sections: about 1.5 s of them in all)
//   -W PERCENT  with `counter` (issue 37): the reader-writer lock, PERCENT %
//               of the pairs writers (the updates above), the others
//               readers (read the array, check it is consistent, pad)
//   -T MS       with `counter`: a timed run in place of -n: the tasks meet
//               at a start gate (each yields until all have started), then
//               each does lock pairs until MS ms after the gate opened;
//               throughput is the pairs over the time from the gate to the
//               last task's end. Every task runs to the end, so the run
//               measures the contended steady state, not the spawning nor
//               a tail where one worker's tasks have finished and the
//               other's run alone (uncontended); see
//               bench/results/locks/cond-rw-41/README.md.
// The binaries define LK_YIELD() (a yield of their tasks) before this.
//   -p PER_NS   the padding loop's iterations per ns, in place of the
//               binary's own calibration: bench/locks/run.py measures it
//               once (`-k calibrate`) and hands the same figure to every
//               peer, so each critical section runs the same instructions
//               (a Go binary calibrating itself while its runtime starts
//               measured its loop 1.5x slower than it runs, and padded its
//               sections 20-30 % short: issue 37, session 45)
//   -k calibrate  print the padding loop's rate (`PAD per_ns=X`) and exit
//   -u UNITS    with `counter`: a counting semaphore of UNITS units
//               instead of a lock; the section checks that at most UNITS
//               tasks are inside, updates a task's own array, pads
//   -k chan     a channel of capacity -u (0: unbuffered, the default):
//               half the tasks send -n items each, half receive as many,
//               20 dependent operations per item on both sides;
//               throughput is items over the wall-clock time, as counter
//   -k cond     the same producers and consumers through a bounded queue
//               of -u slots (at least 1) behind a mutex and two condition
//               variables, not-empty and not-full, signalled under the
//               mutex (the shape of a user's work queue)
//   Items (chan, cond) are distinct (a task's index and a count), and the
//   sums of a hash of every item sent and received must agree: a run that
//   loses or duplicates an item fails.
// Output, one line:
//   RESULT impl=<i> workers=<w> tasks=<t> cs_ns=<c> writers=<W|-> secs=<s>
//          ops=<n> mops=<m> ok=<0|1>
//
//===----------------------------------------------------------------------===//

#ifndef CACS_BENCH_LOCKS_H
#define CACS_BENCH_LOCKS_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lk_config {
  int workers, tasks;
  double cs_ns;
  int writers; ///< -1: plain mutex; else writes per 10,000 iterations
  double window_ms;
  const char *variant;
  int limit;
  int counter;     ///< -k counter (1), chan (2) or cond (3)
  long iters;      ///< -n, counter: lock pairs per task (0: default)
  int units;       ///< -u: counter: semaphore units (0: a lock); chan: capacity
  double timed_ms; ///< -T: counter: a timed run from the start gate (0: -n)
  double pad_per_ns; ///< -p: padding iterations per ns (0: calibrate here)
  int calibrate;     ///< -k calibrate: print the padding rate and exit
} lk_config;

static inline uint64_t lk_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void lk_usage(const char *argv0) {
  fprintf(stderr,
          "usage: %s [-w WORKERS] [-t TASKS] [-c CS_NS] [-d MS] [-W PERCENT] "
          "[-v VARIANT] [-s LIMIT] [-k fig8|counter|chan|cond] [-n ITERS] "
          "[-u UNITS] [-T MS] [-p PER_NS] | -k calibrate\n",
          argv0);
  exit(64);
}

static inline lk_config lk_parse(int argc, char **argv) {
  lk_config c = {1, 5000, 0, -1, 1000, NULL, 4096, 0, 0, 0, 0, 0, 0};
  for (int i = 1; i < argc; ++i) {
    if (i + 1 >= argc || argv[i][0] != '-' || strlen(argv[i]) != 2)
      lk_usage(argv[0]);
    const char *v = argv[++i];
    switch (argv[i - 1][1]) {
    case 'w':
      c.workers = atoi(v);
      break;
    case 't':
      c.tasks = atoi(v);
      break;
    case 'c':
      c.cs_ns = atof(v);
      break;
    case 'd':
      c.window_ms = atof(v);
      break;
    case 'W':
      c.writers = (int)(atof(v) * 100 + 0.5);
      break;
    case 'v':
      c.variant = v;
      break;
    case 's':
      c.limit = atoi(v);
      break;
    case 'k':
      c.calibrate = !strcmp(v, "calibrate");
      if (strcmp(v, "fig8") && strcmp(v, "counter") && strcmp(v, "chan") &&
          strcmp(v, "cond") && !c.calibrate)
        lk_usage(argv[0]);
      c.counter = !strcmp(v, "counter") ? 1
                  : !strcmp(v, "chan")  ? 2
                  : !strcmp(v, "cond")  ? 3
                                        : 0;
      break;
    case 'u':
      c.units = atoi(v);
      break;
    case 'n':
      c.iters = atol(v);
      break;
    case 'T':
      c.timed_ms = atof(v);
      break;
    case 'p':
      c.pad_per_ns = atof(v);
      break;
    default:
      lk_usage(argv[0]);
    }
  }
  if (c.workers < 1 || c.tasks < 1 || c.cs_ns < 0 || c.window_ms <= 0 ||
      c.writers > 10000 || c.limit < 64 || c.iters < 0 || c.units < 0 ||
      (c.units && !c.counter) || (c.units && c.writers >= 0) ||
      (c.counter >= 2 && (c.writers >= 0 || c.tasks < 2 || c.tasks % 2)) ||
      (c.counter == 3 && c.units < 1) || c.timed_ms < 0 ||
      (c.timed_ms > 0 && c.counter != 1) || c.pad_per_ns < 0)
    lk_usage(argv[0]);
  if (c.counter && !c.iters) {
    // 20,000 each, or about 1.5 s of critical sections in all.
    double n = 1.5e9 / c.tasks / (c.cs_ns > 50 ? c.cs_ns : 50);
    c.iters = n < 20000 ? (n < 100 ? 100 : (long)n) : 20000;
  }
  return c;
}

// --- the shared state the critical section updates -------------------------

#define LK_MAP_SLOTS 8192 // a power of 2 above the primes below 65536 / 2
typedef struct lk_state {
  uint32_t key[LK_MAP_SLOTS];
  uint64_t val[LK_MAP_SLOTS];
  uint64_t inserts; ///< plain counter, written only under the (write) lock
  int nprimes;
  uint32_t *primes;
  double pad_per_ns;     ///< padding loop iterations per nanosecond
  uint64_t pad_iters;    ///< for this run's cs_ns
  int counter;           ///< -k counter (1), chan (2) or cond (3)
  uint64_t iters;        ///< counter: lock pairs per task
  uint64_t start;        ///< counter: when the first task was spawned
  uint64_t table[16];    ///< counter: the shared array, plain words
  int units;             ///< counter: semaphore units (0: a lock)
  int inside;            ///< semaphore: tasks inside now (atomic)
  struct lk_task *tasks; ///< chan, cond: even ones send, odd ones receive
  int ntasks;
  uint64_t *ring; ///< cond: the bounded queue, -u slots
  unsigned ring_head, ring_count;
  int ring_bad; ///< cond: a put into a full queue or a get from an empty one
  uint64_t timed_ns; ///< -T: the run's length from the gate (0: -n pairs)
  int arrived;       ///< -T: tasks at the gate (atomic)
  int open;          ///< -T: the gate is open, `start` set (atomic)
  uint64_t deadline; ///< -T: when the tasks stop
} lk_state;

static lk_state lk_g;

/// Busy work, not a sleep: a dependency chain the compiler cannot drop.
static inline uint64_t lk_pad(uint64_t iters) {
  uint64_t x = iters;
  for (uint64_t i = 0; i < iters; ++i) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    __asm__ volatile("" : "+r"(x));
  }
  return x;
}

/// Primes below `p` by the sieve of Eratosthenes (the parallel part); the
/// bitmap lives on the caller's stack (p < 65536: 8 KiB at most).
static inline int lk_sieve(uint32_t p) {
  uint8_t bits[(65536 + 7) / 8];
  memset(bits, 0, (p + 7) / 8);
  int n = 0;
  for (uint32_t i = 2; i < p; ++i) {
    if (bits[i >> 3] & (1u << (i & 7)))
      continue;
    ++n;
    for (uint32_t j = i * i; j < p; j += i)
      bits[j >> 3] |= (uint8_t)(1u << (j & 7));
  }
  return n;
}

static inline uint32_t lk_rand(uint64_t *s) {
  uint64_t x = *s;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *s = x;
  return (uint32_t)(x >> 32);
}

/// The padding loop's iterations per ns: the best of 21 timed runs of 0.2 ms
/// after 20 ms of warming up: a core that has just woken, or a runtime still
/// starting its own threads, runs the first ones slower, and a rate taken
/// there pads every section short once the loop runs at full speed.
static inline double lk_pad_rate(void) {
  const uint64_t it = 200000;
  volatile uint64_t sink;
  for (uint64_t t0 = lk_now_ns(); lk_now_ns() - t0 < 20000000;)
    sink = lk_pad(it);
  double best = 1e30;
  for (int r = 0; r < 21; ++r) {
    uint64_t t0 = lk_now_ns();
    sink = lk_pad(it);
    double d = (double)(lk_now_ns() - t0);
    if (d < best)
      best = d;
  }
  (void)sink;
  return (double)it / best;
}

/// Set up the shared state: the primes in [limit/2, limit) and the padding
/// loop's calibration (the best of a few timed runs).
static inline void lk_setup(const lk_config *c) {
  if (c->calibrate) {
    printf("PAD per_ns=%.6f\n", lk_pad_rate());
    exit(0);
  }
  if (c->limit > 65536) {
    fprintf(stderr, "locks: -s must be at most 65536\n");
    exit(64);
  }
  uint8_t *comp = (uint8_t *)calloc((size_t)c->limit, 1);
  lk_g.primes = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)c->limit);
  for (int i = 2; i < c->limit; ++i) {
    if (comp[i])
      continue;
    if (i >= c->limit / 2)
      lk_g.primes[lk_g.nprimes++] = (uint32_t)i;
    for (int j = 2 * i; j < c->limit; j += i)
      comp[j] = 1;
  }
  free(comp);
  lk_g.pad_per_ns = c->pad_per_ns > 0 ? c->pad_per_ns : lk_pad_rate();
  lk_g.pad_iters = (uint64_t)(c->cs_ns * lk_g.pad_per_ns + 0.5);
  lk_g.counter = c->counter;
  lk_g.iters = (uint64_t)c->iters;
  lk_g.units = c->units;
  lk_g.timed_ns = (uint64_t)(c->timed_ms * 1e6);
  if (c->counter == 3)
    lk_g.ring = (uint64_t *)calloc((size_t)c->units, sizeof(uint64_t));
}

/// The counter shape's critical section: 16 updates of the shared array.
static inline void lk_cs_counter(void) {
  for (int k = 0; k < 16; ++k)
    lk_g.table[k] += 1;
  lk_g.inserts += 1;
  if (lk_g.pad_iters)
    lk_pad(lk_g.pad_iters);
}

/// The counter shape's read side (-W): the array must be the same in every
/// slot (writers update all 16 under the write lock); 0 if not.
static inline int lk_cs_counter_read(void) {
  uint64_t v = lk_g.table[0];
  int ok = 1;
  for (int k = 1; k < 16; ++k)
    ok &= lk_g.table[k] == v;
  if (lk_g.pad_iters)
    lk_pad(lk_g.pad_iters);
  return ok;
}

/// The semaphore's section (-u): at most `units` tasks inside at once, each
/// updating its own array (the section may run in parallel); 0 if more
/// were inside. The count of pairs is atomic for the same reason.
static inline int lk_cs_sem(uint64_t *own) {
  int ok = __atomic_add_fetch(&lk_g.inside, 1, __ATOMIC_RELAXED) <= lk_g.units;
  for (int k = 0; k < 16; ++k)
    own[k] += 1;
  __atomic_fetch_add(&lk_g.inserts, 1, __ATOMIC_RELAXED);
  if (lk_g.pad_iters)
    lk_pad(lk_g.pad_iters);
  __atomic_fetch_sub(&lk_g.inside, 1, __ATOMIC_RELAXED);
  return ok;
}

/// The counter shape's work outside the lock: 20 dependent operations.
static inline uint64_t lk_outside(uint64_t x) {
  for (int k = 0; k < 20; ++k) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    __asm__ volatile("" : "+r"(x));
  }
  return x;
}

/// The write side of the critical section: insert p -> p, count it.
static inline void lk_cs_write(uint32_t p) {
  uint32_t h = (p * 2654435761u) & (LK_MAP_SLOTS - 1);
  while (lk_g.key[h] && lk_g.key[h] != p)
    h = (h + 1) & (LK_MAP_SLOTS - 1);
  lk_g.key[h] = p;
  lk_g.val[h] += 1;
  lk_g.inserts += 1;
  if (lk_g.pad_iters)
    lk_pad(lk_g.pad_iters);
}

/// The read side: look p up; returns 0 if the map is inconsistent.
static inline int lk_cs_read(uint32_t p) {
  uint32_t h = (p * 2654435761u) & (LK_MAP_SLOTS - 1);
  uint32_t k;
  while ((k = lk_g.key[h]) && k != p)
    h = (h + 1) & (LK_MAP_SLOTS - 1);
  if (lk_g.pad_iters)
    lk_pad(lk_g.pad_iters);
  return k == 0 || k == p;
}

/// -T: wait at the start gate, yielding, until every task has come (`n`);
/// the last one opens it and sets the start and the deadline.
#define LK_GATE(n)                                                             \
  do {                                                                         \
    if (__atomic_add_fetch(&lk_g.arrived, 1, __ATOMIC_ACQ_REL) == (n)) {       \
      lk_g.start = lk_now_ns();                                                \
      lk_g.deadline = lk_g.start + lk_g.timed_ns;                              \
      __atomic_store_n(&lk_g.open, 1, __ATOMIC_RELEASE);                       \
    }                                                                          \
    while (!__atomic_load_n(&lk_g.open, __ATOMIC_ACQUIRE))                     \
      LK_YIELD();                                                              \
  } while (0)

/// Per-task bookkeeping.
typedef struct lk_task lk_task;
struct lk_task {
  uint64_t seed;
  uint64_t deadline;
  uint64_t done;   ///< iterations finished before the deadline
  uint64_t writes; ///< write-side critical sections (all of them)
  uint64_t bad;    ///< failed read checks
  uint64_t sink;   ///< the sieves' results, so they are not dropped
  uint64_t end;    ///< -T: when the task stopped
};

/// One task's loop. LOCK/UNLOCK (and RLOCK/RUNLOCK for -W) are statements.
/// `writers` < 0: every iteration writes under LOCK; else writes per 10,000.
#define LK_TASK_LOOP(t, writers, LOCK, UNLOCK, RLOCK, RUNLOCK)                 \
  do {                                                                         \
    if (lk_g.counter) {                                                        \
      uint64_t x_ = (t)->seed, own_[16] = {0}, i_ = 0;                         \
      uint64_t n_ = lk_g.timed_ns ? UINT64_MAX : lk_g.iters;                   \
      if (lk_g.timed_ns)                                                       \
        LK_GATE((int)(lk_g.ntasks));                                           \
      for (; i_ < n_; ++i_) {                                                  \
        if (lk_g.units) {                                                      \
          LOCK;                                                                \
          (t)->bad += !lk_cs_sem(own_);                                        \
          UNLOCK;                                                              \
          (t)->writes++;                                                       \
        } else if ((writers) < 0 ||                                            \
                   (int)(lk_rand(&(t)->seed) % 10000u) < (writers)) {          \
          LOCK;                                                                \
          lk_cs_counter();                                                     \
          UNLOCK;                                                              \
          (t)->writes++;                                                       \
        } else {                                                               \
          RLOCK;                                                               \
          int ok_ = lk_cs_counter_read();                                      \
          RUNLOCK;                                                             \
          (t)->bad += !ok_;                                                    \
        }                                                                      \
        x_ = lk_outside(x_);                                                   \
        if (lk_g.timed_ns && !(i_ & 15) && lk_now_ns() >= lk_g.deadline) {     \
          (t)->end = lk_now_ns();                                              \
          ++i_;                                                                \
          break;                                                               \
        }                                                                      \
      }                                                                        \
      (t)->sink += x_ + own_[0];                                               \
      (t)->done = i_;                                                          \
      break;                                                                   \
    }                                                                          \
    for (;;) {                                                                 \
      uint32_t p_ = lk_g.primes[lk_rand(&(t)->seed) % (uint32_t)lk_g.nprimes]; \
      if ((writers) < 0 || (int)(lk_rand(&(t)->seed) % 10000u) < (writers)) {  \
        LOCK;                                                                  \
        lk_cs_write(p_);                                                       \
        UNLOCK;                                                                \
        (t)->writes++;                                                         \
      } else {                                                                 \
        RLOCK;                                                                 \
        int ok_ = lk_cs_read(p_);                                              \
        RUNLOCK;                                                               \
        (t)->bad += !ok_;                                                      \
      }                                                                        \
      (t)->sink += (uint64_t)lk_sieve(p_);                                     \
      if (lk_now_ns() >= (t)->deadline)                                        \
        break;                                                                 \
      (t)->done++;                                                             \
    }                                                                          \
  } while (0)

/// The value summed for an item (-k chan, cond): a 64-bit mix of it, so
/// that a lost item and a duplicated one do not cancel out.
static inline uint64_t lk_item_hash(uint64_t v) {
  v ^= v >> 30;
  v *= 0xbf58476d1ce4e5b9u;
  v ^= v >> 27;
  v *= 0x94d049bb133111ebu;
  return v ^ (v >> 31);
}

/// One task of `-k chan` and `-k cond`: an even one sends lk_g.iters
/// items (SEND sends the uint64_t v_), each its own (the task's index and
/// a count), an odd one receives as many (RECV into v_); the sums of the
/// items' hashes sent and received are compared at the end (lk_report).
#define LK_CHAN_LOOP(t, SEND, RECV)                                            \
  do {                                                                         \
    uint64_t x_ = (t)->seed, v_ = 0, sum_ = 0;                                 \
    uint64_t me_ = (uint64_t)((t)-lk_g.tasks);                                 \
    if (me_ % 2 == 0) {                                                        \
      for (uint64_t i_ = 0; i_ < lk_g.iters; ++i_) {                           \
        x_ = lk_outside(x_);                                                   \
        v_ = me_ << 32 | (i_ + 1);                                             \
        SEND;                                                                  \
        sum_ += lk_item_hash(me_ << 32 | (i_ + 1));                            \
      }                                                                        \
      (t)->writes = sum_;                                                      \
      (t)->done = lk_g.iters;                                                  \
    } else {                                                                   \
      for (uint64_t i_ = 0; i_ < lk_g.iters; ++i_) {                           \
        RECV;                                                                  \
        sum_ += lk_item_hash(v_);                                              \
        x_ = lk_outside(x_);                                                   \
      }                                                                        \
      __atomic_fetch_add(&lk_g.inserts, sum_, __ATOMIC_RELAXED);               \
    }                                                                          \
    (t)->sink += x_;                                                           \
  } while (0)

/// The bounded queue of `-k cond`, its mutex held: put v_ / take into v_.
static inline void lk_ring_put(uint64_t v) {
  unsigned cap = (unsigned)lk_g.units;
  lk_g.ring_bad |= lk_g.ring_count >= cap;
  lk_g.ring[(lk_g.ring_head + lk_g.ring_count) % cap] = v;
  lk_g.ring_count += 1;
}
static inline uint64_t lk_ring_get(void) {
  unsigned cap = (unsigned)lk_g.units;
  lk_g.ring_bad |= lk_g.ring_count == 0;
  uint64_t v = lk_g.ring[lk_g.ring_head];
  lk_g.ring_head = (lk_g.ring_head + 1) % cap;
  lk_g.ring_count -= 1;
  return v;
}

/// `-k cond`'s send and receive (statements for LK_CHAN_LOOP): the queue
/// behind a mutex, waits in a loop on not-full / not-empty, the other side
/// signalled before the unlock, as users write it. The LOCK, UNLOCK,
/// WAIT_* and SIGNAL_* arguments are statements.
#define LK_COND_SEND(LOCK, UNLOCK, WAIT_NOT_FULL, SIGNAL_NOT_EMPTY)            \
  do {                                                                         \
    LOCK;                                                                      \
    while (lk_g.ring_count == (unsigned)lk_g.units)                            \
      WAIT_NOT_FULL;                                                           \
    lk_ring_put(v_);                                                           \
    SIGNAL_NOT_EMPTY;                                                          \
    UNLOCK;                                                                    \
  } while (0)
#define LK_COND_RECV(LOCK, UNLOCK, WAIT_NOT_EMPTY, SIGNAL_NOT_FULL)            \
  do {                                                                         \
    LOCK;                                                                      \
    while (lk_g.ring_count == 0)                                               \
      WAIT_NOT_EMPTY;                                                          \
    v_ = lk_ring_get();                                                        \
    SIGNAL_NOT_FULL;                                                           \
    UNLOCK;                                                                    \
  } while (0)

static inline lk_task *lk_tasks(const lk_config *c, uint64_t start) {
  lk_task *t = (lk_task *)calloc((size_t)c->tasks, sizeof *t);
  lk_g.start = start;
  lk_g.tasks = t;
  lk_g.ntasks = c->tasks;
  for (int i = 0; i < c->tasks; ++i) {
    t[i].seed = 0x9e3779b97f4a7c15u * (uint64_t)(i + 1);
    t[i].deadline = start + (uint64_t)(c->window_ms * 1e6);
  }
  return t;
}

/// Check and print; returns the exit status (2 on a failed check).
static inline int lk_report(const char *impl, const lk_config *c,
                            const lk_task *t) {
  uint64_t ops = 0, writes = 0, bad = 0, mapsum = 0;
  for (int i = 0; i < c->tasks; ++i) {
    ops += t[i].done;
    writes += t[i].writes;
    bad += t[i].bad;
  }
  for (int i = 0; i < LK_MAP_SLOTS; ++i)
    mapsum += lk_g.val[i];
  double secs = c->window_ms / 1e3;
  if (c->counter) { // every pair counted once in each slot of the table
    secs = (double)(lk_now_ns() - lk_g.start) / 1e9;
    if (lk_g.timed_ns) { // from the gate to the last task's end
      uint64_t end = lk_g.start;
      for (int i = 0; i < c->tasks; ++i)
        end = t[i].end > end ? t[i].end : end;
      secs = (double)(end - lk_g.start) / 1e9;
    }
    mapsum = writes;
    for (int k = 0; k < 16 && c->counter == 1 && !c->units; ++k)
      if (lk_g.table[k] != writes)
        mapsum = 0;
  }
  int ok =
      writes == lk_g.inserts && writes == mapsum && bad == 0 && !lk_g.ring_bad;
  char w[16] = "-";
  if (c->writers >= 0)
    snprintf(w, sizeof w, "%g", c->writers / 100.0);
  printf("RESULT impl=%s shape=%s workers=%d tasks=%d cs_ns=%g writers=%s "
         "secs=%.3f ops=%" PRIu64 " mops=%.4f ok=%d\n",
         impl,
         c->counter == 3   ? "cond"
         : c->counter == 2 ? "chan"
         : c->counter      ? "counter"
                           : "fig8",
         c->workers, c->tasks, c->cs_ns, w, secs, ops, (double)ops / secs / 1e6,
         ok);
  if (!ok)
    fprintf(stderr,
            "locks: %s: check failed: writes %" PRIu64 ", counter %" PRIu64
            ", map %" PRIu64 ", bad reads %" PRIu64 "\n",
            impl, writes, lk_g.inserts, mapsum, bad);
  return ok ? 0 : 2;
}

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_BENCH_LOCKS_H
