// Shared (copy) stacks: the waits of cacs/coro.h, cacs/sync.h and
// cacs/io.h work in coroutines on a shared stack. Their records (and a
// channel item in flight) are kept off the shared stack while the waiter
// is copied out, since other coroutines write them then: K coroutines on
// one shared stack contend for a mutex, wait on a condition variable, a
// semaphore and a wait group, pass items through an unbuffered channel
// from and into locals, park and are woken, park with a timeout, sleep,
// and read a pipe another coroutine writes later. Each checks a local
// after every wait (a record written into a copied-out stack would show
// there, or corrupt another coroutine's frames).
//
// RUN: %clang -O1 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t | FileCheck %s
// RUN: %clang %aarch64_flags -O1 -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %ta
// RUN: %run_aarch64 %ta | FileCheck %s
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %tasan
// RUN: env ASAN_OPTIONS=detect_leaks=1 %tasan | FileCheck %s
// RUN: %clang -O1 -gdwarf-4 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %tvg
// RUN: valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite %tvg 2>%t.vg | FileCheck %s
// RUN: not grep -q . %t.vg
//
// CHECK: mutex 8 ok
// CHECK-NEXT: cond 8 ok
// CHECK-NEXT: sem 8 ok
// CHECK-NEXT: waitgroup 8 ok
// CHECK-NEXT: chan 8 ok
// CHECK-NEXT: park 8 ok
// CHECK-NEXT: timeout 8 ok
// CHECK-NEXT: pipe 8 ok
// CHECK-NEXT: PASS

#include "cacs/coro.h"
#include "cacs/io.h"
#include "cacs/sync.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

enum { K = 8 };
static cacs_mutex mu;
static cacs_cond cv;
static cacs_sem sem;
static cacs_waitgroup wg;
static cacs_chan *ch;
static int ready, fds[2];
static long counter, ok[8], arrived[8];
static cacs_coro *parked[K];

// A local to check after each wait, a few words of it.
#define LIVE(id) volatile long live[4] = {id, id * 3, id * 5, id * 7}
#define INTACT(id)                                                             \
  (live[0] == id && live[1] == id * 3 && live[2] == id * 5 && live[3] == id * 7)

static void body(void *arg) {
  long id = (long)(intptr_t)arg;
  LIVE(id);
  // mutex: held across a yield, so the others queue
  cacs_mutex_lock(&mu, CACS_FOREVER);
  long c = counter;
  cacs_yield();
  counter = c + 1;
  cacs_mutex_unlock(&mu);
  ok[0] += INTACT(id);
  // condition variable
  cacs_mutex_lock(&mu, CACS_FOREVER);
  arrived[1]++;
  while (!ready)
    cacs_cond_wait(&cv, &mu, CACS_FOREVER);
  cacs_mutex_unlock(&mu);
  ok[1] += INTACT(id);
  // semaphore: main posts K units later
  arrived[2]++;
  ok[2] += cacs_sem_wait(&sem, CACS_FOREVER) == 0 && INTACT(id);
  // wait group
  arrived[3]++;
  ok[3] += cacs_waitgroup_wait(&wg, CACS_FOREVER) == 0 && INTACT(id);
  // unbuffered channel: even ids send a local, odd ones receive into one
  if (id % 2 == 0) {
    long item = 1000 + id;
    ok[4] += cacs_chan_send(ch, &item, CACS_FOREVER) == 0 && INTACT(id);
  } else {
    long item = 0;
    ok[4] += cacs_chan_recv(ch, &item, CACS_FOREVER) == 0 && item >= 1000 &&
             item < 1000 + K && item % 2 == 0 && INTACT(id);
  }
  // park until main wakes it
  parked[id] = cacs_self();
  arrived[5]++;
  cacs_park();
  ok[5] += INTACT(id);
  // a timed park that times out, a sleep
  ok[6] += cacs_park_timeout(1000) == -1 && errno == ETIMEDOUT &&
           cacs_sleep(1000) == 0 && INTACT(id);
  // I/O: the first reads what the last one writes
  if (id == 0) {
    char b[8] = {0};
    ok[7] += cacs_read(fds[0], b, 3, CACS_FOREVER) == 3 && b[0] == 'a' &&
             INTACT(id);
  } else {
    cacs_sleep(2000);
    ok[7] += (id != K - 1 || cacs_write(fds[1], "abc", 3, CACS_FOREVER) == 3) &&
             INTACT(id);
  }
}

int main(void) {
  cacs_mutex_init(&mu);
  cacs_cond_init(&cv);
  cacs_sem_init(&sem, 0);
  cacs_waitgroup_init(&wg);
  cacs_waitgroup_add(&wg, 1);
  ch = cacs_chan_create(sizeof(long), 0, 0);
  if (!ch || pipe(fds) != 0)
    return 1;
  cacs_coro *co[K];
  cacs_coro_attr a = {0, CACS_STACK_SHARED, 0, "w"};
  for (long i = 0; i < K; ++i)
    co[i] = cacs_create_ex(body, (void *)(intptr_t)i, &a);
  // Each stage: until all are waiting in it, then release them.
  while (arrived[1] < K)
    cacs_yield();
  cacs_mutex_lock(&mu, CACS_FOREVER);
  ready = 1;
  cacs_cond_broadcast(&cv);
  cacs_mutex_unlock(&mu);
  while (arrived[2] < K)
    cacs_yield();
  for (int i = 0; i < K; ++i)
    cacs_sem_post(&sem);
  while (arrived[3] < K)
    cacs_yield();
  cacs_waitgroup_done(&wg);
  while (arrived[5] < K) // through the channel, then all parked
    cacs_yield();
  for (int i = 0; i < K; ++i)
    cacs_wake(parked[i]);
  for (int i = 0; i < K; ++i)
    cacs_join(co[i]);
  const char *names[] = {"mutex", "cond", "sem", "waitgroup",
                         "chan",  "park", "timeout", "pipe"};
  int pass = counter == K;
  for (int i = 0; i < 8; ++i) {
    printf("%s %ld %s\n", names[i], ok[i], ok[i] == K ? "ok" : "WRONG");
    pass &= ok[i] == K;
  }
  printf("%s\n", pass ? "PASS" : "FAIL");
  cacs_chan_destroy(ch);
  close(fds[0]);
  close(fds[1]);
  return 0;
}
