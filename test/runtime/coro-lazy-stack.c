// A coroutine created while its thread has no warm stack of its size cached
// takes its stack when it first runs (issue 38; docs/runtime.md, "Stacks"):
// - before it runs it can be asked its id and name, renamed, and joined
//   (which runs it); one never run goes with its thread;
// - 100,000 created at once and joined in order run one after the other,
//   each finishing before the next starts, on one or two stacks, not
//   100,000: RSS stays far below a page per coroutine and the cache holds
//   a stack or two after;
// - coroutines that park keep stacks of their own, their locals intact;
// - a first run that finds no memory for the stack (here: an address-space
//   limit set after the creation) never runs the entry: cacs_join fails
//   with ENOMEM; a detached one aborts, naming it; with CACS_STACK_EAGER
//   the failure is cacs_create's, as before.
//
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t before | FileCheck %s --check-prefix=BEFORE
// RUN: %t burst | FileCheck %s --check-prefix=BURST
// RUN: %t park | FileCheck %s --check-prefix=PARK
// RUN: %t fail 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: not --crash %t fail-detached 2>&1 | FileCheck %s --check-prefix=DETACHED
// On AArch64 (qemu-user has no guard regions, whose fallback binds guarded
// stacks at creation: unguarded ones here):
// RUN: %clang %aarch64_flags -O1 -I%cacs_include %s %cacs_rt_aarch64 -lpthread -o %ta
// RUN: %run_aarch64 %ta burst noguard | FileCheck %s --check-prefix=BURST
// RUN: %run_aarch64 %ta park noguard | FileCheck %s --check-prefix=PARK
//
// BEFORE: before its first run: id 1, name coro#1, not done
// BEFORE-NEXT: renamed before it ran: it runs as 'early'
// BEFORE-NEXT: created and joined: join 0, its entry ran 1 time
// BEFORE-NEXT: a thread's coroutine never run: thread ended, entry ran 0 times
//
// BURST: 100000 ran in order: 100000
// BURST-NEXT: rss during the burst: below a page per coroutine
// BURST-NEXT: stacks cached after: at most 2
//
// PARK: 100 parked on stacks of their own: distinct, locals intact
//
// FAIL: eager under the limit: NULL, ENOMEM
// FAIL: first run under the limit: join -1 ENOMEM, entry ran 0 times
//
// DETACHED: cacs: no memory for the stack of detached coroutine 'lost' at its first run

#define _GNU_SOURCE 1
#include <cacs/coro.h>
#include <cacs/stack.h>

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static int ran;
static char seen[64];

static void count(void *arg) {
  (void)arg;
  ran++;
}

static void named(void *arg) {
  (void)arg;
  snprintf(seen, sizeof seen, "%s", cacs_name(cacs_self()));
}

// Resident or mapped KiB (/proc/self/statm field 1 or 0, in pages).
static long statm_kib(int field) {
  long v[2] = {-1, -1};
  FILE *f = fopen("/proc/self/statm", "r");
  if (!f || fscanf(f, "%ld %ld", &v[0], &v[1]) != 2)
    v[field] = -1;
  if (f)
    fclose(f);
  return v[field] * (sysconf(_SC_PAGESIZE) / 1024);
}

static void *thread_main(void *arg) {
  (void)arg;
  if (!cacs_create(count, NULL, 0)) // never run: the thread just ends
    exit(3);
  return NULL;
}

enum { N = 100000 };
static cacs_coro *coros[N];
static long peak;

static void last(void *arg) {
  (void)arg;
  ran++;
  peak = statm_kib(1);
}

static void parker(void *arg) {
  uintptr_t *slot = arg;
  volatile uintptr_t mine = (uintptr_t)&mine; // a local of this stack
  *slot = (uintptr_t)&mine;
  cacs_yield();
  if (mine != (uintptr_t)&mine)
    *slot = 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  cacs_coro_attr plain = {0, 0, 0, NULL};
  if (argc > 2 && !strcmp(argv[2], "noguard"))
    plain.stack_flags = CACS_STACK_NOGUARD;
  setvbuf(stdout, NULL, _IONBF, 0);
  if (!strcmp(mode, "before")) {
    cacs_coro *c = cacs_create(named, NULL, 0);
    if (!c)
      return 2;
    printf("before its first run: id %llu, name %s, %s\n",
           (unsigned long long)cacs_id(c), cacs_name(c),
           cacs_done(c) ? "done" : "not done");
    cacs_set_name(c, "early");
    cacs_join(c) == 0 ? (void)0 : exit(4);
    printf("renamed before it ran: it runs as '%s'\n", seen);
    cacs_coro *d = cacs_create(count, NULL, 0);
    int rc = cacs_join(d);
    printf("created and joined: join %d, its entry ran %d time\n", rc, ran);
    ran = 0;
    pthread_t t;
    if (pthread_create(&t, NULL, thread_main, NULL) != 0 ||
        pthread_join(t, NULL) != 0)
      return 5;
    printf("a thread's coroutine never run: thread ended, entry ran %d "
           "times\n",
           ran);
    return 0;
  }
  if (!strcmp(mode, "burst")) {
    memset(coros, 0, sizeof coros); // resident before
    long before = statm_kib(1);
    for (int i = 0; i < N; ++i)
      if (!(coros[i] = cacs_create_ex(i == N - 1 ? last : count, NULL, &plain)))
        return 2;
    for (int i = 0; i < N; ++i)
      if (cacs_join(coros[i]) != 0)
        return 3;
    printf("%d ran in order: %d\n", N, ran);
    // A page each would be 400,000 KiB; their control blocks take 176
    // bytes each (17,200 KiB).
    long grew = peak - before;
    printf("rss during the burst: %s\n",
           grew < N * 4 / 2 ? "below a page per coroutine" : "WRONG");
    if (grew >= N * 4 / 2)
      printf("  (%ld KiB more than before)\n", grew);
    size_t cached = cacs_stack_pool_count();
    printf("stacks cached after: %s\n", cached <= 2 ? "at most 2" : "WRONG");
    if (cached > 2)
      printf("  (%zu)\n", cached);
    return 0;
  }
  if (!strcmp(mode, "park")) {
    enum { P = 100 };
    static uintptr_t at[P];
    cacs_coro *c[P];
    for (int i = 0; i < P; ++i)
      if (!(c[i] = cacs_create_ex(parker, &at[i], &plain)))
        return 2;
    for (int i = 0; i < P; ++i)
      cacs_join(c[i]);
    int ok = 1;
    for (int i = 0; i < P; ++i) {
      if (!at[i])
        ok = 0; // its local changed while it was parked
      for (int j = 0; j < i; ++j) {
        uintptr_t d = at[i] > at[j] ? at[i] - at[j] : at[j] - at[i];
        if (d < 32 * 1024)
          ok = 0; // the same stack, or overlapping ones
      }
    }
    printf("%d parked on stacks of their own: %s\n", P,
           ok ? "distinct, locals intact" : "WRONG");
    return 0;
  }
  if (!strcmp(mode, "fail") || !strcmp(mode, "fail-detached")) {
    // A size no stack of this thread has had (no slab of it yet), created
    // before the limit; its first run needs a new mapping.
    cacs_coro_attr a = {256 * 1024, 0, 0, "lost"};
    cacs_coro *c = cacs_create_ex(count, NULL, &a);
    if (!c)
      return 2;
    cacs_coro_attr eager = {512 * 1024, CACS_STACK_EAGER, 0, NULL};
    long vm = statm_kib(0);
    struct rlimit r = {(rlim_t)(vm + 1024) * 1024, (rlim_t)(vm + 1024) * 1024};
    if (setrlimit(RLIMIT_AS, &r) != 0)
      return 3;
    if (!strcmp(mode, "fail-detached")) {
      cacs_detach(c);
      cacs_yield(); // its first run aborts: no join could tell
      return 0;
    }
    errno = 0;
    cacs_coro *e = cacs_create_ex(count, NULL, &eager);
    printf("eager under the limit: %s, %s\n", e ? "created" : "NULL",
           errno == ENOMEM ? "ENOMEM" : strerror(errno));
    errno = 0;
    int rc = cacs_join(c);
    int err = errno;
    printf("first run under the limit: join %d %s, entry ran %d times\n", rc,
           err == ENOMEM ? "ENOMEM" : strerror(err), ran);
    return 0;
  }
  return 64;
}
