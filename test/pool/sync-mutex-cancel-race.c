// A mutex waiter that times out while the holder unlocks. The holder's
// unlock sees a waiter queued and, nobody spinning or woken, goes to the
// slow path; before it gets the mutex's spin lock, the waiter, timed out,
// takes it and leaves the queue, which is then empty. The unlock must see
// that under the spin lock and just release the mutex.
//
// The interleaving is forced, not hoped for: libcacs built without TSan
// calls the weak __tsan_acquire (pool_tsan.h) after every spin-lock
// acquire, and this test defines it. When the timed-out waiter has the
// spin lock, the hook lets the holder unlock and holds the waiter there
// for 50 ms, long enough for the unlock to read the state and wait for
// the spin lock. Every task is a thread (the mock of psync.h) so that
// both can run at once. The waiter is a task or a plain thread, the
// mutex CES or dispatch. Before the fix, every run crashed in the unlock,
// reading the empty queue's head (CES: its task, at 0x18, the address
// test/pool/sync-stress.c's TSan build crashed at in CI).
//
// RUN: %clang -O2 -DPSYNC_MOCK -I%cacs_include -I%cacs_src_root/runtime/lib/pool -I%S/Inputs %s %cacs_src_root/runtime/lib/pool/pool_sync.c -lpthread -o %t
// RUN: %t ces task 2>&1 | FileCheck %s
// RUN: %t ces plain 2>&1 | FileCheck %s
// RUN: %t dispatch task 2>&1 | FileCheck %s
// RUN: %t dispatch plain 2>&1 | FileCheck %s
//
// CHECK: cancel-race: raced 1, timed out 1, unlocked 1, free after 1
#include "psync.h"

#include <unistd.h>

enum { TIMEOUT_US = 100000, HOLD_MS = 50 };

static cacs_pool_mutex mu;
static _Thread_local int is_waiter;
static uint64_t waiter_start;
static int raced, unlock_now, locked, waiter_r, waiter_errno, unlock_r;

// The pool's hook after a spin-lock acquire. The waiter's first acquire
// queues it; one long after that is its timeout's, before it leaves.
void __tsan_acquire(void *addr) {
  (void)addr;
  if (!is_waiter || raced ||
      h_now_ns() - waiter_start < TIMEOUT_US * 1000ull / 2)
    return;
  raced = 1;
  __atomic_store_n(&unlock_now, 1, __ATOMIC_RELEASE);
  usleep(HOLD_MS * 1000);
}
void __tsan_release(void *addr) { (void)addr; }

static void holder(void *arg) {
  (void)arg;
  H_CHECK(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0);
  __atomic_store_n(&locked, 1, __ATOMIC_RELEASE);
  while (!__atomic_load_n(&unlock_now, __ATOMIC_ACQUIRE))
    usleep(100);
  unlock_r = cacs_pool_mutex_unlock(&mu);
}

static void waiter(void *arg) {
  (void)arg;
  is_waiter = 1;
  waiter_start = h_now_ns();
  waiter_r = cacs_pool_mutex_lock(&mu, TIMEOUT_US);
  waiter_errno = errno;
}

int main(int argc, char **argv) {
  H_CHECK(argc == 3);
  h_watchdog(30);
  H_CHECK(cacs_pool_mutex_init(&mu, strcmp(argv[1], "dispatch")
                                        ? CACS_POOL_LOCK_CES
                                        : CACS_POOL_LOCK_DISPATCH) == 0);
  h_start(2);
  h_spawn(holder, NULL);
  while (!__atomic_load_n(&locked, __ATOMIC_ACQUIRE))
    usleep(100);
  if (strcmp(argv[2], "plain"))
    h_spawn(waiter, NULL);
  else
    h_plain(waiter, NULL);
  h_join_all();
  h_stop();
  int free_after = cacs_pool_mutex_trylock(&mu) == 0;
  printf("cancel-race: raced %d, timed out %d, unlocked %d, free after %d\n",
         raced, waiter_r == -1 && waiter_errno == ETIMEDOUT, unlock_r == 0,
         free_after);
  return 0;
}
