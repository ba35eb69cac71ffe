// Register survival across the calls of cacs/sync.h that wait, as
// park-registers.c checks the core's: each call is made to wait (a mutex
// another coroutine holds, an unsignalled condition, an empty semaphore,
// channel or cross-thread semaphore, a full channel, an open wait group)
// while a trasher coroutine ends the wait and puts garbage in every
// register, the frame pointer included, before each switch back.
//
// 1. Each entry (cacs_sem_wait, cacs__sem_wait_pn, ...; sync.h has no _bp
//    entries) called from assembly with known values in every callee-saved
//    register of the C convention (Inputs/probe.h).
// 2. A C caller keeps many values live across each call as sync.h binds it
//    for this compiler and these flags, and compares the frame pointer.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang -O2 -DCACS_YIELD_FULL_SAVE=1 -I%cacs_include %s %cacs_rt_x86_64 -o %tf && %tf | FileCheck %s
// RUN: %stock_clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %ts && %ts | FileCheck %s
// RUN: %if gcc %{ gcc -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %tg && %tg | FileCheck %s %}
// The runtime built with ASan by stock clang (coro.h, CACS__PN_DEF):
// RUN: %stock_clang -O1 -fsanitize=address -I%cacs_include %s $(%cacs_rt_objs %stock_clang -O1 -fsanitize=address -I%cacs_include) -o %tsasan && %tsasan | FileCheck %s
//
// CHECK: probes: 14 entries ok, garbage seen by the preserve_none ones
// CHECK-NEXT: mutex_lock ok
// CHECK-NEXT: cond_wait ok
// CHECK-NEXT: sem_wait ok
// CHECK-NEXT: waitgroup_wait ok
// CHECK-NEXT: chan_send ok
// CHECK-NEXT: chan_recv ok
// CHECK-NEXT: xsem_wait ok
// CHECK-NEXT: PASS

#include "cacs/sync.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "Inputs/probe.h"
#include "Inputs/trash.h"

enum sync_kind {
  SY_MUTEX_LOCK,
  SY_COND_WAIT,
  SY_SEM_WAIT,
  SY_WAITGROUP_WAIT,
  SY_CHAN_SEND,
  SY_CHAN_RECV,
  SY_XSEM_WAIT
};
#define SYNC_CALLS(X)                                                          \
  X(mutex_lock, SY_MUTEX_LOCK) X(cond_wait, SY_COND_WAIT)                      \
  X(sem_wait, SY_SEM_WAIT) X(waitgroup_wait, SY_WAITGROUP_WAIT)                \
  X(chan_send, SY_CHAN_SEND) X(chan_recv, SY_CHAN_RECV)                        \
  X(xsem_wait, SY_XSEM_WAIT)

static cacs_mutex held, mine; // the trasher holds `held`; we take `mine`
static cacs_cond cond;
static cacs_sem sem;
static cacs_waitgroup wg;
static cacs_chan *chan;
static cacs_xsem xsem;
static int item = 7, got;

// What the trasher does on its next turn to end the wait.
enum action {
  ACT_NONE,
  ACT_TAKE, // lock `held` (before the wait)
  ACT_UNLOCK,
  ACT_SIGNAL,
  ACT_POST,
  ACT_DONE,
  ACT_RECV,
  ACT_SEND,
  ACT_XPOST
};
static volatile int action, stop;

static void trasher(void *arg) {
  (void)arg;
  int v;
  while (!stop) {
    switch (action) {
    case ACT_TAKE:
      EXPECT(cacs_mutex_lock(&held, 0) == 0);
      break;
    case ACT_UNLOCK:
      EXPECT(cacs_mutex_unlock(&held) == 0);
      break;
    case ACT_SIGNAL:
      cacs_cond_signal(&cond);
      break;
    case ACT_POST:
      cacs_sem_post(&sem);
      break;
    case ACT_DONE:
      cacs_waitgroup_done(&wg);
      break;
    case ACT_RECV:
      EXPECT(cacs_chan_recv(chan, &v, 0) == 0);
      break;
    case ACT_SEND:
      EXPECT(cacs_chan_send(chan, &item, 0) == 0);
      break;
    case ACT_XPOST:
      cacs_xsem_post(&xsem);
      break;
    }
    action = ACT_NONE;
    trash();
    yield_bad_fp();
  }
}

// Make a call of this kind wait and have the trasher end the wait; fill
// `args` (the C prototype's order) for it.
static void sync_setup(enum sync_kind kind, uint64_t args[5]) {
  const uint64_t t = 10 * 1000 * 1000;
#define P(x) (uint64_t)(uintptr_t)(x)
  switch (kind) {
  case SY_MUTEX_LOCK:
    action = ACT_TAKE;
    while (action != ACT_NONE)
      cacs_yield();
    action = ACT_UNLOCK;
    break;
  case SY_COND_WAIT:
    EXPECT(cacs_mutex_lock(&mine, 0) == 0);
    action = ACT_SIGNAL;
    break;
  case SY_SEM_WAIT:
    action = ACT_POST;
    break;
  case SY_WAITGROUP_WAIT:
    cacs_waitgroup_add(&wg, 1);
    action = ACT_DONE;
    break;
  case SY_CHAN_SEND:
    EXPECT(cacs_chan_send(chan, &item, 0) == 0); // full: the send waits
    action = ACT_RECV;
    break;
  case SY_CHAN_RECV:
    action = ACT_SEND;
    break;
  case SY_XSEM_WAIT:
    action = ACT_XPOST;
    break;
  }
  uint64_t a[][5] = {
      [SY_MUTEX_LOCK] = {P(&held), t},
      [SY_COND_WAIT] = {P(&cond), P(&mine), t},
      [SY_SEM_WAIT] = {P(&sem), t},
      [SY_WAITGROUP_WAIT] = {P(&wg), t},
      [SY_CHAN_SEND] = {P(chan), P(&item), t},
      [SY_CHAN_RECV] = {P(chan), P(&got), t},
      [SY_XSEM_WAIT] = {P(&xsem), t},
  };
#undef P
  memcpy(args, a[kind], sizeof a[kind]);
}

// Check what the call returned, and put things back for the next one.
static void sync_finish(enum sync_kind kind, int r) {
  EXPECT(r == 0);
  if (kind == SY_MUTEX_LOCK)
    EXPECT(cacs_mutex_unlock(&held) == 0); // handed to us
  if (kind == SY_COND_WAIT)
    EXPECT(cacs_mutex_unlock(&mine) == 0); // taken back by the wait
  if (kind == SY_CHAN_SEND) // our item went in after the trasher's recv
    EXPECT(cacs_chan_recv(chan, &got, 0) == 0);
  if (kind == SY_CHAN_RECV || kind == SY_CHAN_SEND)
    EXPECT(got == item);
  EXPECT(cacs_chan_len(chan) == 0);
}

// --- 1. the entries, called from assembly (Inputs/probe.h) ------------------

SYNC_CALLS(PROBE_DECLARE)

static void probe_entry(const char *name, void *fn, enum sync_kind kind,
                        enum probe_conv conv) {
  uint64_t args[5] = {0};
  sync_setup(kind, args);
  probe_check(name, conv, probe(fn, args, conv != CONV_C));
  sync_finish(kind, (int)probe_result);
}

static void probe_all(void) {
  int n = 0;
  SYNC_CALLS(PROBE_NO_BP)
  probe_report(n);
}

// --- 2. a C caller with many live values -------------------------------------

__attribute__((noinline)) static void live_across(enum sync_kind kind,
                                                  const char *name) {
  uint64_t a[5];
  sync_setup(kind, a);
  int before = failures;
  LIVE_VALUES_DEFINE(seed, dseed);
  void *fp0, *fp1;
  READ_FP(fp0);
  int r = -1;
  void *p = (void *)(uintptr_t)a[0], *q = (void *)(uintptr_t)a[1];
  switch (kind) {
  case SY_MUTEX_LOCK:
    r = cacs_mutex_lock(p, (int64_t)a[1]);
    break;
  case SY_COND_WAIT:
    r = cacs_cond_wait(p, q, (int64_t)a[2]);
    break;
  case SY_SEM_WAIT:
    r = cacs_sem_wait(p, (int64_t)a[1]);
    break;
  case SY_WAITGROUP_WAIT:
    r = cacs_waitgroup_wait(p, (int64_t)a[1]);
    break;
  case SY_CHAN_SEND:
    r = cacs_chan_send(p, q, (int64_t)a[2]);
    break;
  case SY_CHAN_RECV:
    r = cacs_chan_recv(p, q, (int64_t)a[2]);
    break;
  case SY_XSEM_WAIT:
    r = cacs_xsem_wait(p, (int64_t)a[1]);
    break;
  }
  READ_FP(fp1);
  LIVE_VALUES_CHECK(seed, dseed, check);
  check("frame pointer", 0, fp0 == fp1);
  sync_finish(kind, r);
  printf("%s %s\n", name, failures == before ? "ok" : "FAILED");
}

int main(void) {
  watchdog(60);
  cacs_mutex_init(&held);
  cacs_mutex_init(&mine);
  cacs_cond_init(&cond);
  cacs_sem_init(&sem, 0);
  cacs_waitgroup_init(&wg);
  chan = cacs_chan_create(sizeof item, 1, 0);
  EXPECT(cacs_xsem_init(&xsem, 0) == 0);
  cacs_coro *t = cacs_create(trasher, NULL, 0);
  probe_all();
#define LIVE(name, kind) live_across(kind, #name);
  SYNC_CALLS(LIVE)
  stop = 1;
  cacs_join(t);
  cacs_chan_destroy(chan);
  cacs_xsem_destroy(&xsem);
  if (failures)
    return 1;
  printf("PASS\n");
  return 0;
}
