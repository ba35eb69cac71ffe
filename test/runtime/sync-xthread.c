// Cross-thread waking: a coroutine (and a thread's main coroutine) waiting
// on a cacs_xsem is woken by a post from another thread, also while its
// own thread's other coroutines keep running, and times out when nobody
// posts; a CACS_CHAN_SHARED channel carries items from coroutines of two
// threads and from a plain thread to coroutines of two other threads, whose
// receives time out and retry all the time (every item arrives once,
// checksums match).
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t2 && %t2 | FileCheck %s
//
// CHECK: xsem: woken from another thread ok
// CHECK-NEXT: xsem: woken while 3 coroutines spin ok
// CHECK-NEXT: xsem: timeout with nobody posting ok
// CHECK-NEXT: xsem: 1000 round trips between two threads ok
// CHECK-NEXT: shared channel capacity 0: 3 sending threads -> 2 receiving threads, 18000 items, checksum ok
// CHECK-NEXT: shared channel capacity 8: 3 sending threads -> 2 receiving threads, 18000 items, checksum ok
// CHECK-NEXT: PASS

#include "Inputs/sync-test.h"
#include "cacs/sync.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

static cacs_xsem xs, back;

static void *post_later(void *arg) {
  usleep((useconds_t)(long)arg);
  cacs_xsem_post(&xs);
  return NULL;
}

// --- a coroutine waits, another thread posts -----------------------------
static int woke;
static void xsem_waiter(void *arg) {
  (void)arg;
  EXPECT(cacs_xsem_wait(&xs, CACS_FOREVER) == 0);
  woke = 1;
}

static void test_remote_wake(void) {
  pthread_t t;
  cacs_coro *c = cacs_create(xsem_waiter, NULL, 0);
  pthread_create(&t, NULL, post_later, (void *)5000L);
  long long t0 = now_us();
  cacs_join(c); // the thread has nothing else to do: it sleeps
  pthread_join(t, NULL);
  EXPECT(woke && now_us() - t0 < 5 * 1000 * 1000);
  // The main coroutine itself, with a (long) timeout.
  pthread_create(&t, NULL, post_later, (void *)2000L);
  t0 = now_us();
  EXPECT(cacs_xsem_wait(&xs, 10 * 1000 * 1000) == 0);
  EXPECT(now_us() - t0 < 5 * 1000 * 1000);
  pthread_join(t, NULL);
  printf("xsem: woken from another thread %s\n", OK);
}

// --- the waiting thread stays busy ---------------------------------------------
static volatile int stop;
static void spinner(void *arg) {
  (void)arg;
  while (!stop)
    cacs_yield();
}
static void stopping_waiter(void *arg) {
  (void)arg;
  EXPECT(cacs_xsem_wait(&xs, CACS_FOREVER) == 0);
  stop = 1;
}

static void test_remote_wake_busy(void) {
  pthread_t t;
  cacs_coro *s[3];
  for (int i = 0; i < 3; i++)
    s[i] = cacs_create(spinner, NULL, 0);
  cacs_coro *w = cacs_create(stopping_waiter, NULL, 0);
  pthread_create(&t, NULL, post_later, (void *)3000L);
  cacs_join(w);
  for (int i = 0; i < 3; i++)
    cacs_join(s[i]);
  pthread_join(t, NULL);
  printf("xsem: woken while 3 coroutines spin %s\n", OK);
}

static void test_timeout(void) {
  long long t0 = now_us();
  EXPECT(err_of(cacs_xsem_wait(&xs, 3000)) == ETIMEDOUT);
  EXPECT(now_us() - t0 >= 3000);
  EXPECT(err_of(cacs_xsem_trywait(&xs)) == EAGAIN);
  printf("xsem: timeout with nobody posting %s\n", OK);
}

// --- ping-pong: each side's main coroutine waits for the other's post ------
enum { ROUNDS = 1000 };
static void *pong(void *arg) {
  (void)arg;
  for (int i = 0; i < ROUNDS; i++) {
    EXPECT(cacs_xsem_wait(&xs, 5 * 1000 * 1000) == 0);
    cacs_xsem_post(&back);
  }
  return NULL;
}

static void test_ping_pong(void) {
  pthread_t t;
  pthread_create(&t, NULL, pong, NULL);
  int ok = 0;
  for (int i = 0; i < ROUNDS; i++) {
    cacs_xsem_post(&xs);
    ok += err_of(cacs_xsem_wait(&back, 5 * 1000 * 1000)) == 0;
  }
  pthread_join(t, NULL);
  EXPECT(ok == ROUNDS);
  printf("xsem: %d round trips between two threads %s\n", ok, OK);
}

// --- a shared channel between threads -------------------------------------------
struct item {
  uint32_t sender, seq;
  uint64_t payload;
};
static uint64_t mix(uint32_t p, uint32_t s) {
  uint64_t x = ((uint64_t)p << 32 | s) * 0x9e3779b97f4a7c15u;
  return x ^ (x >> 29);
}

enum { SEND_THREADS = 3, CORO_PER_THREAD = 4, PER = 1500, RECV_THREADS = 2 };
enum { NITEMS = SEND_THREADS * CORO_PER_THREAD * PER };
static cacs_chan *ch;
static uint64_t sent_sum[SEND_THREADS], recv_sum[RECV_THREADS];
static int recv_count[RECV_THREADS], bad[RECV_THREADS];

static void send_items(uint32_t id, uint64_t *sum) {
  for (uint32_t s = 0; s < PER; s++) {
    struct item it = {id, s, mix(id, s)};
    EXPECT(cacs_chan_send(ch, &it, CACS_FOREVER) == 0);
    *sum += it.payload;
  }
}

struct sender_arg {
  int thread, coro;
};
static void send_coro(void *arg) {
  struct sender_arg *a = (struct sender_arg *)arg;
  send_items((uint32_t)(a->thread * 100 + a->coro), &sent_sum[a->thread]);
}

static void *send_thread(void *arg) {
  int t = (int)(long)arg;
  struct sender_arg a[CORO_PER_THREAD];
  if (t == SEND_THREADS - 1) { // a plain thread: no coroutines of its own
    for (int i = 0; i < CORO_PER_THREAD; i++)
      send_items((uint32_t)(t * 100 + i), &sent_sum[t]);
    return NULL;
  }
  cacs_coro *c[CORO_PER_THREAD];
  for (int i = 0; i < CORO_PER_THREAD; i++) {
    a[i].thread = t;
    a[i].coro = i;
    c[i] = cacs_create(send_coro, &a[i], 0);
  }
  for (int i = 0; i < CORO_PER_THREAD; i++)
    cacs_join(c[i]);
  return NULL;
}

static void recv_coro(void *arg) {
  int t = (int)(long)arg;
  struct item it;
  for (;;) {
    // Short timeouts: many expire just as an item is handed over.
    int r = err_of(cacs_chan_recv(ch, &it, 50));
    if (r == ETIMEDOUT)
      continue;
    if (r == EPIPE)
      break;
    EXPECT(r == 0);
    recv_count[t]++;
    recv_sum[t] += it.payload;
    bad[t] += it.payload != mix(it.sender, it.seq);
  }
}

static void *recv_thread(void *arg) {
  cacs_coro *c[3];
  for (int i = 0; i < 3; i++)
    c[i] = cacs_create(recv_coro, arg, 0);
  for (int i = 0; i < 3; i++)
    cacs_join(c[i]);
  return NULL;
}

static void test_shared_channel(size_t cap) {
  ch = cacs_chan_create(sizeof(struct item), cap, CACS_CHAN_SHARED);
  memset(sent_sum, 0, sizeof sent_sum);
  memset(recv_sum, 0, sizeof recv_sum);
  memset(recv_count, 0, sizeof recv_count);
  memset(bad, 0, sizeof bad);
  pthread_t s[SEND_THREADS], r[RECV_THREADS];
  for (long i = 0; i < RECV_THREADS; i++)
    pthread_create(&r[i], NULL, recv_thread, (void *)i);
  for (long i = 0; i < SEND_THREADS; i++)
    pthread_create(&s[i], NULL, send_thread, (void *)i);
  for (int i = 0; i < SEND_THREADS; i++)
    pthread_join(s[i], NULL);
  EXPECT(cacs_chan_close(ch) == 0);
  for (int i = 0; i < RECV_THREADS; i++)
    pthread_join(r[i], NULL);
  uint64_t sent = 0, got = 0;
  int n = 0, nbad = 0;
  for (int i = 0; i < SEND_THREADS; i++)
    sent += sent_sum[i];
  for (int i = 0; i < RECV_THREADS; i++) {
    got += recv_sum[i];
    n += recv_count[i];
    nbad += bad[i];
  }
  EXPECT(n == NITEMS && nbad == 0 && sent == got);
  EXPECT(cacs_chan_destroy(ch) == 0);
  printf("shared channel capacity %zu: %d sending threads -> %d receiving "
         "threads, %d items, checksum %s\n",
         cap, SEND_THREADS, RECV_THREADS, n, OK);
}

int main(void) {
  test_start(60);
  EXPECT(cacs_xsem_init(&xs, 0) == 0 && cacs_xsem_init(&back, 0) == 0);
  test_remote_wake();
  test_remote_wake_busy();
  test_timeout();
  test_ping_pong();
  test_shared_channel(0);
  test_shared_channel(8);
  cacs_xsem_destroy(&xs);
  cacs_xsem_destroy(&back);
  EXPECT(cacs_count() == 0);
  return test_end();
}
