// A locker that finds an object's spin lock held for long lets the CPU go
// (pool_spin.h, SPIN_YIELD_PAUSES): its holder is not running, maybe
// preempted for this very thread when two workers share a CPU, and a
// spin that never yields keeps the holder off that CPU for a whole time
// slice (issue 37: the rwlock of a default pool, milliseconds per spin).
// The main thread holds a semaphore's spin lock (white box; the rwlock,
// which took its spin lock at every call then, takes it only on contention
// now); a pool coroutine calls sem_wait and spins for it; the main thread waits, for up
// to ROUNDS rounds of sched_yield, until the locker's thread has called
// sched_yield (this program's sched_yield counts the calls of that thread
// from the locker's call on). The two are pinned to two CPUs when there
// are two, so that the waits are short either way. With the old spin
// lock the locker never yielded ("gave the CPU: 0"). Counts calls, not
// time.
//
// RUN: %clang -O2 -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 \
// RUN:   -lpthread -o %t
// RUN: %t 2>&1 | FileCheck %s
//
// CHECK: gave the CPU: 1
// CHECK-NEXT: took: 1
#include "psync.h"

#include <sys/syscall.h>
#include <unistd.h>

#define ROUNDS 50000

static cacs_pool_sem sem;
static int locker_tid, counting, yields, done;
static int cpu[2];

// The runtime is linked statically into this program: its sched_yield
// calls come here.
int sched_yield(void) {
  if (__atomic_load_n(&counting, __ATOMIC_ACQUIRE) &&
      gettid() == __atomic_load_n(&locker_tid, __ATOMIC_RELAXED))
    __atomic_fetch_add(&yields, 1, __ATOMIC_RELEASE);
  return (int)syscall(SYS_sched_yield);
}

static void pin(int c) {
  cpu_set_t s;
  CPU_ZERO(&s);
  CPU_SET(c, &s);
  H_CHECK(sched_setaffinity(0, sizeof s, &s) == 0);
}

static void locker(void *arg) {
  (void)arg;
  pin(cpu[1]);
  __atomic_store_n(&locker_tid, gettid(), __ATOMIC_RELAXED);
  __atomic_store_n(&counting, 1, __ATOMIC_RELEASE);
  H_CHECK(cacs_pool_sem_wait(&sem, CACS_POOL_FOREVER) == 0);
  __atomic_store_n(&counting, 0, __ATOMIC_RELEASE);
  __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
}

int main(void) {
  h_watchdog(60);
  cpu_set_t s;
  H_CHECK(sched_getaffinity(0, sizeof s, &s) == 0);
  for (int c = 0, k = 0; c < CPU_SETSIZE && k < 2; ++c)
    if (CPU_ISSET(c, &s))
      cpu[k++] = c;
  if (CPU_COUNT(&s) < 2)
    cpu[1] = cpu[0];
  pin(cpu[0]);
  cacs_pool_sem_init(&sem, 1);
  while (__atomic_exchange_n(&sem.spin, 1, __ATOMIC_ACQUIRE))
    ;
  h_start(1);
  h_spawn(locker, NULL);
  while (!__atomic_load_n(&counting, __ATOMIC_ACQUIRE))
    sched_yield();
  for (int i = 0; i < ROUNDS && !__atomic_load_n(&yields, __ATOMIC_ACQUIRE);
       ++i)
    sched_yield();
  int gave = __atomic_load_n(&yields, __ATOMIC_ACQUIRE) > 0;
  __atomic_store_n(&sem.spin, 0, __ATOMIC_RELEASE);
  h_join_all();
  printf("gave the CPU: %d\n", gave);
  printf("took: %d\n", __atomic_load_n(&done, __ATOMIC_ACQUIRE));
  h_stop();
  return 0;
}
