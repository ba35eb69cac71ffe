// cacs_chan between coroutines of one thread: many producers and consumers
// through channels of capacity 0, 1 and 16 (every item arrives once, in
// each producer's order, checksums match), close semantics, timeouts that
// fire and that do not, and items handed to a receiver or taken from a
// sender whose timeout expired in the same instant (not lost, not doubled).
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
//
// CHECK: capacity 0: 8 producers x 2000 -> 5 consumers, 16000 items in order, checksum ok
// CHECK-NEXT: capacity 1: 8 producers x 2000 -> 5 consumers, 16000 items in order, checksum ok
// CHECK-NEXT: capacity 16: 8 producers x 2000 -> 5 consumers, 16000 items in order, checksum ok
// CHECK-NEXT: close: buffered 1 2 3 then EPIPE; blocked sender EPIPE, blocked receiver EPIPE ok
// CHECK-NEXT: timeouts: recv and send ETIMEDOUT after the deadline, delivered in time ok
// CHECK-NEXT: timeout vs send: the receiver got 42 ok
// CHECK-NEXT: timeout vs recv: the sender's 7 was taken once ok
// CHECK-NEXT: PASS

#include "Inputs/sync-test.h"
#include "cacs/sync.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

struct item {
  uint32_t producer, seq;
  uint64_t payload; // a function of (producer, seq)
  char pad[40];     // items larger than a register
};

static uint64_t mix(uint32_t p, uint32_t s) {
  uint64_t x = ((uint64_t)p << 32 | s) * 0x9e3779b97f4a7c15u;
  return x ^ (x >> 29);
}

enum { NPROD = 8, PER = 2000, NCONS = 5 };
static cacs_chan *ch;
static cacs_waitgroup producers = CACS_WAITGROUP_INIT;
static uint64_t sent_sum, recv_sum;
// Per consumer: the next sequence number it may see from each producer. A
// consumer takes each producer's items in the order they were sent (it may
// process them after another consumer processed later ones).
static int64_t last_seq[NCONS][NPROD];
static int received, misordered, bad_payload;

static void producer(void *arg) {
  uint32_t p = (uint32_t)(long)arg;
  for (uint32_t s = 0; s < PER; s++) {
    struct item it = {p, s, mix(p, s), {0}};
    memset(it.pad, (int)(s & 0xff), sizeof it.pad);
    EXPECT(cacs_chan_send(ch, &it, CACS_FOREVER) == 0);
    sent_sum += it.payload;
    if (s % 17 == p)
      cacs_sleep(10);
  }
  cacs_waitgroup_done(&producers);
}

static void consumer(void *arg) {
  long k = (long)arg;
  struct item it;
  int r;
  while ((r = err_of(cacs_chan_recv(ch, &it, CACS_FOREVER))) == 0) {
    received++;
    recv_sum += it.payload;
    bad_payload += it.payload != mix(it.producer, it.seq) ||
                   it.pad[39] != (char)(it.seq & 0xff);
    misordered += (int64_t)it.seq <= last_seq[k][it.producer];
    last_seq[k][it.producer] = it.seq;
    if (received % (int)(3 + k) == 0)
      cacs_yield();
  }
  EXPECT(r == EPIPE);
}

static void closer(void *arg) {
  (void)arg;
  EXPECT(cacs_waitgroup_wait(&producers, CACS_FOREVER) == 0);
  EXPECT(cacs_chan_close(ch) == 0);
}

static void test_producers_consumers(size_t cap) {
  ch = cacs_chan_create(sizeof(struct item), cap, 0);
  EXPECT(ch && cacs_chan_cap(ch) == cap);
  sent_sum = recv_sum = 0;
  received = misordered = bad_payload = 0;
  for (int i = 0; i < NCONS; i++)
    for (int j = 0; j < NPROD; j++)
      last_seq[i][j] = -1;
  cacs_coro *c[NPROD + NCONS + 1];
  int n = 0;
  cacs_waitgroup_add(&producers, NPROD);
  for (long i = 0; i < NCONS; i++)
    c[n++] = cacs_create(consumer, (void *)i, 0);
  for (long i = 0; i < NPROD; i++)
    c[n++] = cacs_create(producer, (void *)i, 0);
  c[n++] = cacs_create(closer, NULL, 0);
  for (int i = 0; i < n; i++)
    cacs_join(c[i]);
  EXPECT(received == NPROD * PER);
  EXPECT(misordered == 0);
  EXPECT(bad_payload == 0);
  EXPECT(sent_sum == recv_sum && cacs_chan_len(ch) == 0);
  EXPECT(cacs_chan_destroy(ch) == 0);
  printf("capacity %zu: %d producers x %d -> %d consumers, %d items in order, "
         "checksum %s\n",
         cap, NPROD, PER, NCONS, received, OK);
}

// --- close ------------------------------------------------------------------------
static int blocked_result = -1;
static void blocked_sender(void *arg) {
  int v = 99;
  (void)arg;
  blocked_result = err_of(cacs_chan_send(ch, &v, CACS_FOREVER));
}
static void blocked_receiver(void *arg) {
  int v;
  (void)arg;
  blocked_result = err_of(cacs_chan_recv(ch, &v, CACS_FOREVER));
}

static void test_close(void) {
  ch = cacs_chan_create(sizeof(int), 3, 0);
  for (int v = 1; v <= 3; v++)
    EXPECT(cacs_chan_send(ch, &v, 0) == 0);
  cacs_coro *s = cacs_create(blocked_sender, NULL, 0);
  cacs_yield(); // the channel is full: it waits
  EXPECT(blocked_result == -1);
  EXPECT(err_of(cacs_chan_destroy(ch)) == EBUSY);
  EXPECT(cacs_chan_close(ch) == 0);
  cacs_join(s);
  EXPECT(blocked_result == EPIPE);
  EXPECT(err_of(cacs_chan_close(ch)) == EPIPE);
  int v = 4;
  EXPECT(err_of(cacs_chan_send(ch, &v, CACS_FOREVER)) == EPIPE);
  printf("close: buffered");
  for (int i = 1; i <= 3; i++) {
    EXPECT(cacs_chan_recv(ch, &v, CACS_FOREVER) == 0 && v == i);
    printf(" %d", v);
  }
  EXPECT(err_of(cacs_chan_recv(ch, &v, CACS_FOREVER)) == EPIPE);
  EXPECT(err_of(cacs_chan_recv(ch, &v, 0)) == EPIPE);
  EXPECT(cacs_chan_destroy(ch) == 0);
  printf(" then EPIPE; blocked sender %s", blocked_result == EPIPE ? "EPIPE" : "?");
  ch = cacs_chan_create(sizeof(int), 2, 0);
  blocked_result = -1;
  cacs_coro *r = cacs_create(blocked_receiver, NULL, 0);
  cacs_yield(); // empty: it waits
  EXPECT(blocked_result == -1);
  EXPECT(cacs_chan_close(ch) == 0);
  cacs_join(r);
  EXPECT(blocked_result == EPIPE);
  EXPECT(cacs_chan_destroy(ch) == 0);
  printf(", blocked receiver %s %s\n", blocked_result == EPIPE ? "EPIPE" : "?",
         OK);
}

// --- timeouts ----------------------------------------------------------------------
static int timed_result;
static int timed_value;
static void timed_receiver(void *arg) {
  timed_result = err_of(cacs_chan_recv(ch, &timed_value, (int64_t)(long)arg));
}

static void test_timeouts(void) {
  ch = cacs_chan_create(sizeof(int), 1, 0);
  int v = 5;
  long long t0 = now_us();
  EXPECT(err_of(cacs_chan_recv(ch, &v, 0)) == ETIMEDOUT);
  EXPECT(err_of(cacs_chan_recv(ch, &v, 3000)) == ETIMEDOUT);
  EXPECT(now_us() - t0 >= 3000);
  EXPECT(cacs_chan_send(ch, &v, 0) == 0);
  t0 = now_us();
  EXPECT(err_of(cacs_chan_send(ch, &v, 0)) == ETIMEDOUT);
  EXPECT(err_of(cacs_chan_send(ch, &v, 3000)) == ETIMEDOUT);
  EXPECT(now_us() - t0 >= 3000 && cacs_chan_len(ch) == 1);
  EXPECT(cacs_chan_recv(ch, &v, 0) == 0 && v == 5);
  // Delivered within a long timeout.
  timed_result = -1;
  cacs_coro *c = cacs_create(timed_receiver, (void *)(10L * 1000 * 1000), 0);
  cacs_yield();
  t0 = now_us();
  cacs_sleep(2000);
  v = 6;
  EXPECT(cacs_chan_send(ch, &v, 0) == 0);
  cacs_join(c);
  EXPECT(timed_result == 0 && timed_value == 6 && now_us() - t0 < 1000000);
  EXPECT(cacs_chan_len(ch) == 0);
  EXPECT(cacs_chan_destroy(ch) == 0);
  printf("timeouts: recv and send ETIMEDOUT after the deadline, delivered in "
         "time %s\n",
         OK);
}

// --- a send meets a receiver whose timeout just expired ------------------
static void test_timeout_send_race(void) {
  ch = cacs_chan_create(sizeof(int), 4, 0);
  timed_result = -1;
  timed_value = 0;
  cacs_coro *c = cacs_create(timed_receiver, (void *)1000L, 0);
  cacs_yield(); // it waits, 1 ms
  spin_us(3000);
  cacs_yield(); // the service coroutine expires its timer
  EXPECT(timed_result == -1);
  int v = 42;
  EXPECT(cacs_chan_send(ch, &v, 0) == 0); // handed to the waiting receiver
  cacs_join(c);
  // The item went to the receiver and nowhere else: it must have it.
  EXPECT(timed_result == 0 && timed_value == 42 && cacs_chan_len(ch) == 0);
  EXPECT(cacs_chan_destroy(ch) == 0);
  printf("timeout vs send: the receiver got %d %s\n", timed_value, OK);
}

// --- a receive takes the item of a sender whose timeout just expired -----
static int sender_result;
static void timed_sender(void *arg) {
  int v = 7;
  sender_result = err_of(cacs_chan_send(ch, &v, (int64_t)(long)arg));
}

static void test_timeout_recv_race(void) {
  ch = cacs_chan_create(sizeof(int), 1, 0);
  int v = 1;
  EXPECT(cacs_chan_send(ch, &v, 0) == 0); // full
  sender_result = -1;
  cacs_coro *c = cacs_create(timed_sender, (void *)1000L, 0);
  cacs_yield(); // it waits for room, 1 ms
  spin_us(3000);
  cacs_yield(); // its timer expires
  EXPECT(sender_result == -1);
  EXPECT(cacs_chan_recv(ch, &v, 0) == 0 && v == 1); // room: its 7 moves in
  cacs_join(c);
  int taken = 0;
  while (cacs_chan_recv(ch, &v, 0) == 0)
    taken += v == 7;
  // The sender was told 0 exactly when its item is in the channel.
  EXPECT(sender_result == 0 && taken == 1);
  EXPECT(cacs_chan_destroy(ch) == 0);
  printf("timeout vs recv: the sender's 7 was taken %s %s\n",
         taken == 1 ? "once" : "not once", OK);
}

int main(void) {
  test_start(60);
  EXPECT(cacs_chan_create(0, 4, 0) == NULL && errno == EINVAL);
  test_producers_consumers(0);
  test_producers_consumers(1);
  test_producers_consumers(16);
  test_close();
  test_timeouts();
  test_timeout_send_race();
  test_timeout_recv_race();
  EXPECT(cacs_count() == 0);
  return test_end();
}
