// A channel destroyed right after a send or a close served a waiting
// receiver, before that receiver has returned: the one-shot reply channel
// ("send the reply, drop the channel"). A one-thread receiver must not
// touch the channel after it was served, so the destroy may free it at
// once; a shared channel's receiver takes the channel's lock again before
// it returns, so until then cacs_chan_destroy must say EBUSY. Both used to
// free the channel under the receiver (cacs_chan_recv read ch->lock after
// its wait; the shared receiver locked the freed mutex): AddressSanitizer
// reports a heap use after free, and the shared destroy returned 0.
//
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %s $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -lpthread -o %ta
// RUN: env ASAN_OPTIONS=detect_leaks=1 %ta 2>&1 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t2 && %t2 | FileCheck %s
//
// CHECK: one thread: reply 42 received, destroyed at once (0)
// CHECK-NEXT: one thread, closed: EPIPE received, destroyed at once (0)
// CHECK-NEXT: shared: destroy while the served receiver is away: EBUSY
// CHECK-NEXT: shared: reply 42 received, then destroyed (0)
// CHECK-NEXT: PASS

#include "Inputs/sync-test.h"
#include "cacs/sync.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>

static cacs_chan *ch;
static int got, rr;

static void asker(void *arg) {
  (void)arg;
  rr = err_of(cacs_chan_recv(ch, &got, CACS_FOREVER));
}

static void one_thread(int close_it) {
  ch = cacs_chan_create(sizeof(int), 0, 0);
  got = 0;
  cacs_coro *c = cacs_create(asker, NULL, 0);
  cacs_yield(); // the asker waits for the reply
  int v = 42;
  if (close_it)
    EXPECT(cacs_chan_close(ch) == 0);
  else
    EXPECT(cacs_chan_send(ch, &v, CACS_FOREVER) == 0);
  int d = err_of(cacs_chan_destroy(ch)); // the asker has not run since
  cacs_join(c);
  if (close_it) {
    EXPECT(rr == EPIPE);
    printf("one thread, closed: %s received, destroyed at once (%d)\n",
           rr == EPIPE ? "EPIPE" : "?", d);
  } else {
    EXPECT(rr == 0 && got == 42);
    printf("one thread: reply %d received, destroyed at once (%d)\n", got, d);
  }
  EXPECT(d == 0);
}

// --- shared: the receiver's thread is kept busy until the destroy ---------
// The hog never yields between the asker's wait and the first destroy, so
// the served asker cannot return before it, however the threads are
// scheduled (it used to yield until the send and then spin 100 ms, and a
// yield between the send and the destroy let the asker return first).
static int queued, destroyed_once;

static void hog(void *arg) {
  (void)arg;
  __atomic_store_n(&queued, 1, __ATOMIC_RELEASE); // the asker ran first
  while (!__atomic_load_n(&destroyed_once, __ATOMIC_ACQUIRE))
    ;
}

static void *receiver_thread(void *arg) {
  (void)arg;
  cacs_coro *a = cacs_create(asker, NULL, 0);
  cacs_coro *h = cacs_create(hog, NULL, 0);
  cacs_join(a);
  cacs_join(h);
  return NULL;
}

static void shared(void) {
  ch = cacs_chan_create(sizeof(int), 0, CACS_CHAN_SHARED);
  got = 0;
  pthread_t t;
  pthread_create(&t, NULL, receiver_thread, NULL);
  while (!__atomic_load_n(&queued, __ATOMIC_ACQUIRE))
    usleep(1000);
  int v = 42;
  EXPECT(cacs_chan_send(ch, &v, CACS_FOREVER) == 0); // hands it over
  int d = err_of(cacs_chan_destroy(ch));
  __atomic_store_n(&destroyed_once, 1, __ATOMIC_RELEASE);
  printf("shared: destroy while the served receiver is away: %s\n",
         d == EBUSY ? "EBUSY"
         : d == 0   ? "0 (freed under it)"
                    : "?");
  EXPECT(d == EBUSY);
  if (d == EBUSY) {
    while ((d = err_of(cacs_chan_destroy(ch))) == EBUSY)
      usleep(1000);
  }
  pthread_join(t, NULL);
  EXPECT(rr == 0 && got == 42 && d == 0);
  printf("shared: reply %d received, then destroyed (%d)\n", got, d);
}

int main(void) {
  test_start(60);
  one_thread(0);
  one_thread(1);
  shared();
  return test_end();
}
