// Waiting in the core scheduler: cacs_park/cacs_wake, cacs_park_timeout,
// cacs_sleep ordering and accuracy, cacs_join by parking, 20,001 sleepers
// (the timer heap; 2,001 under ASan, where arming 20,001 took seconds of
// wall time and the wait, ten times the arming, over a minute), sleeps while
// other coroutines stay busy (the service coroutine runs once per round), and
// the deadlock report.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O2 -fsanitize=address -I%cacs_include %s %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang --target=aarch64-linux-gnu -O2 -I%cacs_include %s %cacs_rt_aarch64 -o %tarm && %run_aarch64 %tarm | FileCheck %s
// RUN: not --crash %t2 deadlock 2>&1 | FileCheck --check-prefix=DEADLOCK %s
//
// CHECK: park/wake: 1 2 3 4 5 6 ok
// CHECK-NEXT: park_timeout: woken 0, timed out 1, zero 1 ok
// CHECK-NEXT: sleep order: 1 2 3 4 5 ok
// CHECK-NEXT: sleepers: {{(20001|2001)}} woke in deadline order ok
// CHECK-NEXT: busy ring: sleeper woke while 3 coroutines spun ok
// CHECK-NEXT: join parks the joiner ok
// CHECK-NEXT: PASS
// DEADLOCK: cacs: deadlock: every coroutine of this thread is waiting and no timer or I/O wait can wake one (in 'main')

#include "cacs/coro.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "Inputs/check.h"


// --- park/wake: a parked coroutine runs again only after cacs_wake ----------
static char trace[64];
static int ntrace;
static cacs_coro *parker;
static void note(int v) { trace[ntrace++] = (char)('0' + v); }

static void park_entry(void *arg) {
  (void)arg;
  note(1);
  cacs_park(); // main must run until it wakes us
  note(4);
  cacs_park();
  note(6);
}

static void test_park_wake(void) {
  parker = cacs_create(park_entry, NULL, 0);
  cacs_yield(); // parker: 1, parks
  note(2);
  cacs_yield(); // parker is off the ring: returns at once
  cacs_yield();
  note(3);
  cacs_wake(parker);
  cacs_wake(parker); // already ready: no effect
  cacs_yield();      // parker: 4, parks again
  note(5);
  cacs_wake(parker);
  cacs_join(parker); // parker: 6, finishes
  trace[ntrace] = 0;
  printf("park/wake:");
  for (int i = 0; i < ntrace; i++)
    printf(" %c", trace[i]);
  EXPECT(strcmp(trace, "123456") == 0);
  printf(" %s\n", failures ? "FAILED" : "ok");
}

// --- park_timeout ------------------------------------------------------------
static int timeout_result = -2;
static void waiter_entry(void *arg) {
  timeout_result = err_of(cacs_park_timeout(*(int64_t *)arg));
}

static void test_park_timeout(void) {
  int64_t long_wait = 10 * 1000 * 1000; // 10 s: must be cut short by the wake
  cacs_coro *w = cacs_create(waiter_entry, &long_wait, 0);
  cacs_yield();
  long long t0 = now_us();
  cacs_wake(w);
  cacs_join(w);
  int woken = timeout_result;
  EXPECT(now_us() - t0 < 1000000);
  int64_t short_wait = 2000;
  w = cacs_create(waiter_entry, &short_wait, 0);
  t0 = now_us();
  cacs_join(w);
  int timed_out = timeout_result == ETIMEDOUT;
  EXPECT(now_us() - t0 >= 2000);
  int zero = err_of(cacs_park_timeout(0)) == ETIMEDOUT;
  EXPECT(woken == 0 && timed_out && zero);
  printf("park_timeout: woken %d, timed out %d, zero %d %s\n", woken, timed_out,
         zero, failures ? "FAILED" : "ok");
}

// --- sleep order
// --------------------------------------------------------------
// Sleeper k sleeps k spacings from when it first runs (ring order 3 1 5 2 4,
// once main joins the first). Their deadlines are in k order whenever all
// five armed within one spacing of each other; under qemu on a loaded
// machine arming can take longer, so a run whose arming spanned a spacing
// or more proves nothing and is repeated with four times the spacing. A
// wrong order after a quick arming is a failure at any spacing.
static int order[8], norder;
static long long spacing_us, armed_at[8];
static void sleeper_entry(void *arg) {
  int k = (int)(long)arg;
  long long t0 = now_us();
  armed_at[k] = t0;
  EXPECT(cacs_sleep(k * spacing_us) == 0);
  EXPECT(now_us() - t0 >= k * spacing_us);
  order[norder++] = k;
}

static int run_sleep_order(void) { // the arming's span, in us
  cacs_coro *c[5];
  int ks[5] = {3, 1, 5, 2, 4};
  norder = 0;
  for (int i = 0; i < 5; i++)
    c[i] = cacs_create(sleeper_entry, (void *)(long)ks[i], 0);
  for (int i = 0; i < 5; i++)
    cacs_join(c[i]);
  long long lo = armed_at[1], hi = armed_at[1];
  for (int k = 2; k <= 5; k++) {
    lo = armed_at[k] < lo ? armed_at[k] : lo;
    hi = armed_at[k] > hi ? armed_at[k] : hi;
  }
  return (int)(hi - lo);
}

static void test_sleep_order(void) {
  spacing_us = 3000;
  while (run_sleep_order() >= spacing_us && spacing_us < 200000)
    spacing_us *= 4;
  printf("sleep order:");
  for (int i = 0; i < norder; i++) {
    printf(" %d", order[i]);
    EXPECT(order[i] == i + 1);
  }
  printf(" %s\n", failures ? "FAILED" : "ok");
}

// --- many sleepers: the heap orders 20,001 deadlines -------------------------
// Three groups, armed in the order LATE, EARLY, MIDDLE, with delays 5, 1 and
// 3 gaps plus a scrambled 0..99 us within each group. A gap is longer than
// arming all the sleepers takes (measured by a first pass; ASan under load
// needs hundreds of ms), so the order of the groups' deadlines does not
// depend on timing and is checked exactly: every EARLY sleeper must wake
// before every MIDDLE one, and those before every LATE one. A heap that does
// not sift up or down mixes the groups.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CORO_WAIT_ASAN 1
#endif
#endif
#ifdef CORO_WAIT_ASAN
enum { NSLEEP = 2001, NGROUP = 3 };
#else
enum { NSLEEP = 20001, NGROUP = 3 };
#endif
static const int group_gaps[NGROUP] = {5, 1, 3};
static const int group_rank[NGROUP] = {2, 0, 1}; // expected wake order
static int64_t gap_us;
static int woke_rank[NSLEEP], nwoke;
static long long last_armed_us;
static void many_entry(void *arg) {
  int i = (int)(long)arg, g = i % NGROUP;
  long long t0 = now_us();
  last_armed_us = t0;
  int64_t delay = group_gaps[g] * gap_us + (int64_t)(((long)i * 7919) % 100);
  cacs_sleep(delay);
  EXPECT(now_us() - t0 >= delay);
  woke_rank[nwoke++] = group_rank[g];
}

// Create the sleepers LATE first, then EARLY, then MIDDLE (creation order is
// arming order: they first run, in ring order, when main joins the first),
// join them all and return how long arming them took.
static long long run_sleepers(void) {
  static cacs_coro *c[NSLEEP];
  int n = 0;
  for (int g = 0; g < NGROUP; g++)
    for (int i = g; i < NSLEEP; i += NGROUP) {
      cacs_coro_attr a = {CACS_STACK_SMALL_SIZE, 0, 0, NULL};
      c[n] = cacs_create_ex(many_entry, (void *)(long)i, &a);
      EXPECT(c[n] != NULL);
      n++;
    }
  nwoke = 0;
  long long t0 = now_us();
  for (int i = 0; i < n; i++)
    cacs_join(c[i]);
  return last_armed_us - t0;
}

static void test_many_sleepers(void) {
  gap_us = 1; // calibration: how long does arming take here?
  long long arming = run_sleepers();
  gap_us = 2 * arming + 50000;
  run_sleepers();
  EXPECT(nwoke == NSLEEP);
  int misordered = 0;
  for (int i = 1; i < nwoke; i++)
    misordered += woke_rank[i] < woke_rank[i - 1];
  EXPECT(misordered == 0);
  printf("sleepers: %d woke in deadline order %s\n", nwoke,
         failures ? "FAILED" : "ok");
}

// --- a sleeper wakes while other coroutines never wait -----------------------
static volatile int stop_spinning;
static long long slept_for;
static void spinner(void *arg) {
  (void)arg;
  while (!stop_spinning)
    cacs_yield();
}
static void busy_sleeper(void *arg) {
  (void)arg;
  long long t0 = now_us();
  cacs_sleep(5000);
  slept_for = now_us() - t0;
  stop_spinning = 1;
}

static void test_busy_ring(void) {
  cacs_coro *s[3];
  for (int i = 0; i < 3; i++)
    s[i] = cacs_create(spinner, NULL, 0);
  cacs_coro *b = cacs_create(busy_sleeper, NULL, 0);
  cacs_join(b);
  for (int i = 0; i < 3; i++)
    cacs_join(s[i]);
  EXPECT(slept_for >= 5000 && slept_for < 5 * 1000 * 1000);
  printf("busy ring: sleeper woke while 3 coroutines spun %s\n",
         failures ? "FAILED" : "ok");
}

// --- join parks: the joiner is off the ring while the target runs ------------
static int joiner_ran;
static cacs_coro *worker;
static void join_target(void *arg) {
  (void)arg;
  for (int i = 0; i < 100; i++)
    cacs_yield(); // main is parked: it must not run in between
}
static void joiner_entry(void *arg) {
  (void)arg;
  cacs_join(worker);
  joiner_ran++;
}

static void test_join_parks(void) {
  worker = cacs_create(join_target, NULL, 0);
  cacs_coro *j = cacs_create(joiner_entry, NULL, 0);
  cacs_yield(); // worker yields to joiner, joiner parks in cacs_join
  EXPECT(joiner_ran == 0);
  cacs_join(j);
  EXPECT(joiner_ran == 1);
  printf("join parks the joiner %s\n", failures ? "FAILED" : "ok");
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0);
  if (argc > 1 && strcmp(argv[1], "deadlock") == 0) {
    cacs_park(); // nothing can ever wake main
    return 0;
  }
  test_park_wake();
  test_park_timeout();
  test_sleep_order();
  test_many_sleepers();
  test_busy_ring();
  test_join_parks();
  EXPECT(cacs_count() == 0);
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
