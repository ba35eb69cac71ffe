//===- bench/locks/locks_pthread.c - pthread_mutex with OS threads --------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The lock benchmark (locks.h) with one OS thread per task, all confined to
// the first WORKERS CPUs this process may use (the kernel's scheduler is the
// "executor"): pthread_mutex_t, or pthread_rwlock_t for -W, or a POSIX
// sem_t of -u units (issue 37), or for `-k cond` a queue of -u slots behind
// a pthread_mutex_t and two pthread_cond_t. No channel (`-k chan`): exits
// 64.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#define LK_YIELD() sched_yield()
#include "locks.h"

#include <pthread.h>
#include <sched.h>
#include <semaphore.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static sem_t sem;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER,
                      not_full = PTHREAD_COND_INITIALIZER;
static int writers;

static void *task(void *arg) {
  lk_task *t = arg;
  if (lk_g.counter == 3)
    LK_CHAN_LOOP(
        t,
        LK_COND_SEND(pthread_mutex_lock(&mu), pthread_mutex_unlock(&mu),
                     pthread_cond_wait(&not_full, &mu),
                     pthread_cond_signal(&not_empty)),
        LK_COND_RECV(pthread_mutex_lock(&mu), pthread_mutex_unlock(&mu),
                     pthread_cond_wait(&not_empty, &mu),
                     pthread_cond_signal(&not_full)));
  else if (lk_g.units)
    LK_TASK_LOOP(t, writers, sem_wait(&sem), sem_post(&sem), (void)0, (void)0);
  else if (writers < 0)
    LK_TASK_LOOP(t, writers, pthread_mutex_lock(&mu), pthread_mutex_unlock(&mu),
                 (void)0, (void)0);
  else
    LK_TASK_LOOP(t, writers, pthread_rwlock_wrlock(&rw),
                 pthread_rwlock_unlock(&rw), pthread_rwlock_rdlock(&rw),
                 pthread_rwlock_unlock(&rw));
  return NULL;
}

int main(int argc, char **argv) {
  lk_config c = lk_parse(argc, argv);
  if (c.counter == 2) {
    fprintf(stderr, "locks_pthread: no channel\n");
    return 64;
  }
  lk_setup(&c);
  if (c.units && c.counter != 3 && sem_init(&sem, 0, (unsigned)c.units) != 0) {
    perror("sem_init");
    return 1;
  }
  writers = c.writers;
  cpu_set_t allowed, use;
  CPU_ZERO(&use);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
    perror("sched_getaffinity");
    return 1;
  }
  int n = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE && n < c.workers; ++cpu)
    if (CPU_ISSET(cpu, &allowed)) {
      CPU_SET(cpu, &use);
      ++n;
    }
  if (n < c.workers) {
    fprintf(stderr, "locks_pthread: %d workers asked, %d CPUs allowed\n",
            c.workers, n);
    return 64;
  }
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 128 << 10);
  pthread_attr_setaffinity_np(&attr, sizeof use, &use);
  pthread_t *th = malloc(sizeof *th * (size_t)c.tasks);
  lk_task *t = lk_tasks(&c, lk_now_ns());
  for (int i = 0; i < c.tasks; ++i)
    if (pthread_create(&th[i], &attr, task, &t[i]) != 0) {
      fprintf(stderr, "locks_pthread: pthread_create failed at task %d\n", i);
      return 1;
    }
  for (int i = 0; i < c.tasks; ++i)
    pthread_join(th[i], NULL);
  return lk_report(c.counter == 3  ? "pthread_cond"
                   : c.units       ? "posix_sem"
                   : c.writers < 0 ? "pthread_mutex"
                                   : "pthread_rwlock",
                   &c, t);
}
