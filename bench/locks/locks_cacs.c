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
// cacs_pool_sem of that many units instead, and `-k chan` passes items
// through a cacs_pool_chan of capacity -u.
//
//===----------------------------------------------------------------------===//

#include "locks.h"

#include "cacs/pool.h"
#include "cacs/pool_sync.h"

static cacs_pool_mutex mu;
static cacs_pool_rwlock rw;
static cacs_pool_sem sem;
static cacs_pool_chan *ch;
static int writers;

static void task(void *arg) {
  lk_task *t = arg;
  if (ch)
    LK_CHAN_LOOP(t, cacs_pool_chan_send(ch, &v_, CACS_POOL_FOREVER),
                 cacs_pool_chan_recv(ch, &v_, CACS_POOL_FOREVER));
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

int main(int argc, char **argv) {
  lk_config c = lk_parse(argc, argv);
  const char *v = c.variant ? c.variant : "ces";
  unsigned kind;
  size_t n = strcspn(v, "-");
  int pinned = !strcmp(v + n, "-default");
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
  cacs_pool_task **th = malloc(sizeof *th * (size_t)c.tasks);
  lk_task *t = lk_tasks(&c, lk_now_ns());
  for (int i = 0; i < c.tasks; ++i)
    if (!(th[i] = cacs_pool_spawn(p, task, &t[i]))) {
      perror("cacs_pool_spawn");
      return 1;
    }
  for (int i = 0; i < c.tasks; ++i)
    cacs_pool_join(th[i]);
  cacs_pool_destroy(p);
  char impl[64];
  snprintf(impl, sizeof impl, "cacs_%.*s%s_%s", (int)n, v,
           pinned ? "_default" : "",
           ch ? "chan" : c.units ? "sem" : c.writers < 0 ? "mutex" : "rwlock");
  return lk_report(impl, &c, t);
}
