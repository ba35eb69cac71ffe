//===- bench/locks/locks_cacs.c - libcacs pool: CES and dispatch locks ----===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The lock benchmark (locks.h) with one pool coroutine per task on a
// libcacs pool of WORKERS threads (cacs/pool.h), locking a
// cacs_pool_mutex (or, for -W, a cacs_pool_rwlock) whose release is
// chosen by -v: `ces` (the CES paper's Figure 6, with barging where it
// pays: pool_sync.c, "Barging or hand-off") or `dispatch` (its Figure 3),
// in a pool whose running coroutines may migrate (CES's back-to-back
// critical sections on one worker), or, with `-default` (`ces-default`,
// `dispatch-default`), in a default pool, where a started coroutine stays
// on its worker. With -u (issue 37) the counter shape takes a
// cacs_pool_sem of that many units instead, `-k chan` passes items
// through a cacs_pool_chan of capacity -u, and `-k cond` through a queue
// of -u slots behind a cacs_pool_mutex and two cacs_pool_cond. With
// `-default-main` (`ces-default-main`, ...) a default pool's tasks are
// spawned by main even with -T (below), as a user's would be; a default
// pool's run prints on stderr how many tasks homed on each worker.
//
//===----------------------------------------------------------------------===//

#define LK_YIELD() cacs_pool_yield()
#include "locks.h"

#include "cacs/pool.h"
#include "cacs/pool_sync.h"

#include <sched.h>

static cacs_pool_mutex mu;
static cacs_pool_rwlock rw;
static cacs_pool_sem sem;
static cacs_pool_chan *ch;
static cacs_pool_cond not_empty = CACS_POOL_COND_INIT,
                      not_full = CACS_POOL_COND_INIT;
static int writers;

static int homes[1024]; // tasks started on each worker

static void task(void *arg) {
  lk_task *t = arg;
  int w = cacs_pool_worker_index();
  if (w >= 0 && w < 1024)
    __atomic_add_fetch(&homes[w], 1, __ATOMIC_RELAXED);
  if (ch)
    LK_CHAN_LOOP(t, cacs_pool_chan_send(ch, &v_, CACS_POOL_FOREVER),
                 cacs_pool_chan_recv(ch, &v_, CACS_POOL_FOREVER));
  else if (lk_g.counter == 3)
    LK_CHAN_LOOP(
        t,
        LK_COND_SEND(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER),
                     cacs_pool_mutex_unlock(&mu),
                     cacs_pool_cond_wait(&not_full, &mu, CACS_POOL_FOREVER),
                     cacs_pool_cond_signal(&not_empty)),
        LK_COND_RECV(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER),
                     cacs_pool_mutex_unlock(&mu),
                     cacs_pool_cond_wait(&not_empty, &mu, CACS_POOL_FOREVER),
                     cacs_pool_cond_signal(&not_full)));
  else if (lk_g.units)
    LK_TASK_LOOP(t, writers, cacs_pool_sem_wait(&sem, CACS_POOL_FOREVER),
                 cacs_pool_sem_post(&sem), (void)0, (void)0);
  else if (writers < 0)
    LK_TASK_LOOP(t, writers, cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER),
                 cacs_pool_mutex_unlock(&mu), (void)0, (void)0);
  else
    LK_TASK_LOOP(t, writers, cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER),
                 cacs_pool_rwlock_wrunlock(&rw),
                 cacs_pool_rwlock_rdlock(&rw, CACS_POOL_FOREVER),
                 cacs_pool_rwlock_rdunlock(&rw));
}

// -T: the tasks are spawned by one coroutine per worker, each its share
// (task i by worker i % WORKERS), so that in a default pool their homes are
// balanced as a server's per-worker handlers are. Spawned from this plain
// thread they go to the shared queue and home wherever a worker first takes
// them: on a loaded machine often all 64 on one worker, a run without
// contention (bench/results/locks/cond-rw-41/README.md). A spawner that
// lands on a worker already claimed gives up and main spawns another; the
// claimed ones wait until every worker is claimed, keeping their workers
// busy, so none steals the others' tasks before they start. They wait with
// sched_yield, not cacs_pool_yield: in a pool that migrates running
// coroutines a claimed spawner that yields to the pool may be stolen by
// the unclaimed worker, and every later spawner then lands on a claimed one
// (2 of 60 starts of `-v ces -t 4` failed so: "no spawner on every worker").
static cacs_pool *pool;
static cacs_pool_task **th;
static lk_task *tasks_of;
static int nworkers, ntasks, nclaimed, claimed[1024];

static void spawner(void *arg) {
  int *placed = arg, w = cacs_pool_worker_index(), no = 0;
  if (w < 0 || w >= 1024 ||
      !__atomic_compare_exchange_n(&claimed[w], &no, 1, 0, __ATOMIC_ACQ_REL,
                                   __ATOMIC_RELAXED)) {
    __atomic_store_n(placed, 0, __ATOMIC_RELEASE);
    return;
  }
  __atomic_add_fetch(&nclaimed, 1, __ATOMIC_ACQ_REL);
  __atomic_store_n(placed, 1, __ATOMIC_RELEASE);
  while (__atomic_load_n(&nclaimed, __ATOMIC_ACQUIRE) < nworkers)
    sched_yield();
  for (int i = w; i < ntasks; i += nworkers)
    if (!(th[i] = cacs_pool_spawn(pool, task, &tasks_of[i]))) {
      perror("cacs_pool_spawn");
      exit(1);
    }
}

/// Spawn the tasks balanced over the workers (above); 0, or -1.
static int spawn_balanced(void) {
  cacs_pool_task *sp[64];
  int placed[64], n = 0;
  for (int tries = 0; nclaimed < nworkers; ++tries) {
    if (tries == 1000 || n == 64 || nworkers > 1024) {
      fprintf(stderr, "locks_cacs: no spawner on every worker\n");
      return -1;
    }
    placed[n] = -1;
    if (!(sp[n] = cacs_pool_spawn(pool, spawner, &placed[n])))
      return -1;
    int r;
    while ((r = __atomic_load_n(&placed[n], __ATOMIC_ACQUIRE)) < 0)
      sched_yield();
    if (r)
      ++n;
    else
      cacs_pool_join(sp[n]);
  }
  for (int k = 0; k < n; ++k)
    cacs_pool_join(sp[k]);
  return 0;
}

int main(int argc, char **argv) {
  lk_config c = lk_parse(argc, argv);
  const char *v = c.variant ? c.variant : "ces";
  unsigned kind;
  size_t n = strcspn(v, "-");
  int from_main = !strcmp(v + n, "-default-main");
  int pinned = from_main || !strcmp(v + n, "-default");
  if (v[n] && !pinned)
    lk_usage(argv[0]);
  if (!strncmp(v, "ces", n) && n == 3)
    kind = CACS_POOL_LOCK_CES;
  else if (!strncmp(v, "dispatch", n) && n == 8)
    kind = CACS_POOL_LOCK_DISPATCH;
  else
    lk_usage(argv[0]);
  lk_setup(&c);
  writers = c.writers;
  if (cacs_pool_mutex_init(&mu, kind) != 0 ||
      cacs_pool_rwlock_init(&rw, kind) != 0)
    return 1;
  cacs_pool_sem_init(&sem, (uint64_t)c.units);
  if (c.counter == 2 &&
      !(ch = cacs_pool_chan_create(sizeof(uint64_t), (size_t)c.units))) {
    perror("cacs_pool_chan_create");
    return 1;
  }
  // Built with -fcoroutine-migration: its running coroutines may move.
  cacs_pool_attr attr = {(unsigned)c.workers, 64 << 10,
                         pinned ? CACS_POOL_MIGRATE_UNSTARTED
                                : CACS_POOL_MIGRATE_RUNNING};
  cacs_pool *p = cacs_pool_create_ex(&attr);
  if (!p) {
    perror("cacs_pool_create_ex");
    return 1;
  }
  th = malloc(sizeof *th * (size_t)c.tasks);
  lk_task *t = lk_tasks(&c, lk_now_ns());
  pool = p;
  tasks_of = t;
  nworkers = c.workers;
  ntasks = c.tasks;
  if (c.timed_ms > 0 && !from_main) {
    if (spawn_balanced() != 0)
      return 1;
  } else {
    for (int i = 0; i < c.tasks; ++i)
      if (!(th[i] = cacs_pool_spawn(p, task, &t[i]))) {
        perror("cacs_pool_spawn");
        return 1;
      }
  }
  for (int i = 0; i < c.tasks; ++i)
    cacs_pool_join(th[i]);
  cacs_pool_destroy(p);
  if (pinned) {
    fprintf(stderr, "homes:");
    for (int i = 0; i < c.workers && i < 1024; ++i)
      fprintf(stderr, " %d", homes[i]);
    fprintf(stderr, "\n");
  }
  char impl[64];
  snprintf(impl, sizeof impl, "cacs_%.*s%s%s_%s", (int)n, v,
           pinned ? "_default" : "", from_main ? "_main" : "",
           ch               ? "chan"
           : c.counter == 3 ? "cond"
           : c.units        ? "sem"
           : c.writers < 0  ? "mutex"
                            : "rwlock");
  return lk_report(impl, &c, t);
}
