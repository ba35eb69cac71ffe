// A fault-injection program (scripts/faults): one thread's coroutines with
// timers, sync (mutex, semaphore, wait group, channel), a generator, an
// effect coroutine and shared-stack coroutines. Every fallible call is
// checked; a failure is reported ("handled: WHAT: ERRNO") and the program
// frees what it made and goes on, so a run with any one call failing ends
// with exit 0 and nothing leaked, or in a documented abort.

#define _GNU_SOURCE 1 // strerrorname_np
#include "cacs/coro.h"
#include "cacs/effect.h"
#include "cacs/generator.h"
#include "cacs/stack.h"
#include "cacs/sync.h"
#include "faults-check.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>


// --- coroutines with timers and sync --------------------------------------
static cacs_mutex mu;
static cacs_sem sem;
static cacs_waitgroup wg;
static long shared_count;

static void worker(void *arg) {
  long id = (long)(intptr_t)arg;
  if (check(cacs_sleep(100 + id * 50) == 0, "cacs_sleep") || errno == EINTR)
    ;
  if (check(cacs_mutex_lock(&mu, 1000 * 1000) == 0, "cacs_mutex_lock")) {
    shared_count++;
    cacs_sleep(0);
    cacs_mutex_unlock(&mu);
  }
  if (check(cacs_sem_wait(&sem, 1000 * 1000) == 0, "cacs_sem_wait"))
    cacs_sem_post(&sem);
  check(cacs_park_timeout(50) == -1 && errno == ETIMEDOUT,
        "cacs_park_timeout");
  cacs_waitgroup_done(&wg);
}

static void test_coros(void) {
  enum { N = 4 };
  cacs_coro *c[N];
  cacs_mutex_init(&mu);
  cacs_sem_init(&sem, 1);
  cacs_waitgroup_init(&wg);
  int made = 0;
  for (; made < N; made++) {
    cacs_waitgroup_add(&wg, 1);
    if (!check((c[made] = cacs_create(worker, (void *)(intptr_t)made, 0)) !=
                   NULL,
               "cacs_create")) {
      cacs_waitgroup_done(&wg);
      break;
    }
  }
  check(cacs_waitgroup_wait(&wg, 5 * 1000 * 1000) == 0, "cacs_waitgroup_wait");
  for (int i = 0; i < made; i++)
    check(cacs_join(c[i]) == 0, "cacs_join");
  printf("coros: %d made\n", made);
}

// --- a channel between coroutines -----------------------------------------
static void producer(void *arg) {
  cacs_chan *ch = arg;
  for (int i = 0; i < 10; i++)
    if (!check(cacs_chan_send(ch, &i, 1000 * 1000) == 0, "cacs_chan_send"))
      break;
  cacs_chan_close(ch);
}

static void test_chan(void) {
  cacs_chan *ch = cacs_chan_create(sizeof(int), 2, 0);
  if (!check(ch != NULL, "cacs_chan_create"))
    return;
  cacs_coro *p = cacs_create(producer, ch, 0);
  int sum = 0, v;
  if (check(p != NULL, "cacs_create")) {
    while (cacs_chan_recv(ch, &v, 1000 * 1000) == 0)
      sum += v;
    check(errno == EPIPE, "cacs_chan_recv");
    check(cacs_join(p) == 0, "cacs_join");
  }
  check(cacs_chan_destroy(ch) == 0, "cacs_chan_destroy");
  printf("chan: sum %d\n", sum);
}

// --- a generator -----------------------------------------------------------
static void count_to(cacs_gen *g, void *arg) {
  for (uint64_t i = 1; i <= (uint64_t)(intptr_t)arg; i++)
    cacs_gen_yield(g, i);
}

static void test_gen(void) {
  cacs_gen *g = cacs_gen_create(count_to, (void *)(intptr_t)5, 0);
  if (!check(g != NULL, "cacs_gen_create"))
    return;
  uint64_t v, sum = 0;
  while (cacs_gen_next(g, &v))
    sum += v;
  cacs_gen_destroy(g);
  printf("gen: sum %llu\n", (unsigned long long)sum);
}

// --- an effect coroutine ---------------------------------------------------
CACS_EFFECT(ask, int, int);

static void *asker(void *arg) {
  (void)arg;
  int s = 0;
  for (int i = 0; i < 3; i++)
    s += CACS_PERFORM(ask, i);
  return (void *)(intptr_t)s;
}

static void test_effect(void) {
  cacs_effect_coro *k = cacs_effect_create(asker, NULL, 0);
  if (!check(k != NULL, "cacs_effect_create"))
    return;
  int answer = 7;
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(ask), NULL);
  while (q.effect)
    q = cacs_effect_resume(k, CACS_HANDLES(ask), &answer);
  cacs_effect_destroy(k);
  printf("effect: %ld\n", (long)(intptr_t)q.payload);
}

// --- shared-stack coroutines ----------------------------------------------
static void pinger(void *arg) {
  char buf[2048]; // a frame worth saving at each switch
  memset(buf, (int)(intptr_t)arg, sizeof buf);
  for (int i = 0; i < 3; i++)
    cacs_yield();
  check(buf[100] == (char)(intptr_t)arg, "shared stack contents");
}

static void test_shared(void) {
  cacs_coro_attr a = {0, CACS_STACK_SHARED, 0, "pinger"};
  cacs_coro *c[2] = {NULL, NULL};
  for (int i = 0; i < 2; i++)
    check((c[i] = cacs_create_ex(pinger, (void *)(intptr_t)(i + 1), &a)) !=
              NULL,
          "cacs_create_ex(SHARED)");
  for (int i = 0; i < 2; i++)
    if (c[i])
      check(cacs_join(c[i]) == 0, "cacs_join");
  printf("shared: done\n");
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  test_coros();
  test_chan();
  test_gen();
  test_effect();
  test_shared();
  cacs_stack_pool_trim();
  printf("done: %d handled\n", handled);
  return 0;
}
