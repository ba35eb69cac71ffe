// SafeStack (-fsanitize=safe-stack) keeps address-taken locals on a per-thread
// unsafe stack used as a LIFO. Coroutines and generators must each have their
// own, or one that finishes frees the live unsafe frames of another and the
// next call overwrites them. Every local buffer below is filled with a pattern
// of its owner and checked after switches: coroutines that finish in varied
// orders, nested frames live across yields, waits in cacs/sync.h (channel,
// mutex), timers and descriptor I/O (cacs/io.h), generators interleaved
// with their consumers' frames, and threads. The installed libcacs.a (built
// without SafeStack) serves the SafeStack program. The summary must equal
// the stock clang -O0 build's.
//
// RUN: %stock_clang -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t0
// RUN: %t0 > %t0.out
// RUN: %clang -O1 -fsanitize=safe-stack -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t1
// RUN: %t1 > %t1.out
// RUN: diff %t0.out %t1.out
// RUN: FileCheck %s < %t1.out
// RUN: %clang -O2 -fsanitize=safe-stack -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t2
// RUN: %t2 | diff %t0.out -
//
// CHECK: repro: bad=0
// CHECK-NEXT: orders: checked=
// CHECK-SAME: bad=0
// CHECK-NEXT: sync: checked=
// CHECK-SAME: bad=0
// CHECK-NEXT: io: checked=
// CHECK-SAME: bad=0
// CHECK-NEXT: generators: sum=
// CHECK-SAME: bad=0
// CHECK-NEXT: threads: bad=0
// CHECK-NEXT: PASS

#include "cacs/coro.h"
#include "cacs/io.h"
#include "cacs/sync.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "Inputs/unsafe-frames.h"

// --- the reproducer's pattern ----------------------------------------------

static void shortlived(void *arg) {
  char buf[256];
  (void)arg;
  fill(buf, 256, 1);
  cacs_yield();
}

static void longlived(void *arg) {
  char buf[256];
  (void)arg;
  fill(buf, 256, 2);
  for (int i = 0; i < 10; i++)
    cacs_yield();
  check(buf, 256, 2);
}

static void third(void *arg) {
  char buf[1024];
  (void)arg;
  fill(buf, 1024, 3);
  cacs_yield();
}

static void repro(void) {
  cacs_coro *a = cacs_create(shortlived, 0, 0);
  cacs_coro *b = cacs_create(longlived, 0, 0);
  cacs_yield();
  cacs_join(a);
  cacs_coro *c = cacs_create(third, 0, 0);
  cacs_join(c);
  cacs_join(b);
  printf("repro: bad=%ld\n", bad);
}

// --- nested frames, varied finishing orders -------------------------------

// Recursion `depth` deep; every level owns a buffer and yields `yields`
// times before and after going deeper.
static void nest(int tag, int depth, int yields) {
  char buf[48 + 16 * depth];
  fill(buf, (int)sizeof buf, tag * 8 + depth);
  for (int i = 0; i < yields; i++)
    cacs_yield();
  if (depth > 0)
    nest(tag, depth - 1, yields);
  for (int i = 0; i < (tag + depth) % 3; i++)
    cacs_yield();
  check(buf, (int)sizeof buf, tag * 8 + depth);
}

static void worker(void *arg) {
  int tag = (int)(intptr_t)arg;
  char mine[100];
  fill(mine, 100, tag);
  nest(tag, tag % 5, (tag * 7) % 4);
  cacs_yield();
  check(mine, 100, tag);
}

static void orders(int print) {
  enum { N = 24 };
  cacs_coro *c[N];
  // Waves: coroutines created while others are alive and half done.
  for (int i = 0; i < N; i++) {
    c[i] = cacs_create(worker, (void *)(intptr_t)(i + 1), 0);
    if (i % 6 == 5)
      cacs_yield();
  }
  // Join in a scrambled order (7 is coprime with 24).
  for (int i = 0; i < N; i++)
    cacs_join(c[(i * 7) % N]);
  if (print)
    printf("orders: checked=%ld bad=%ld\n", checked, bad);
}

// --- a coroutine that finishes early, one that comes late -------------------

// Created before the coroutines of a section, finished while they wait:
// with one unsafe stack for all, its frames were above theirs, and `late`,
// created after it finished, reuses that place and more.
static void early(void *arg) {
  char buf[128];
  (void)arg;
  fill(buf, 128, 90);
  cacs_sleep(50);
  check(buf, 128, 90);
}

static void late(void *arg) {
  char buf[2048];
  (void)arg;
  fill(buf, 2048, 91);
  for (int i = 0; i < 3; i++)
    cacs_yield();
  check(buf, 2048, 91);
}

// --- waits in cacs/sync.h and timers ----------------------------------------

static cacs_chan *chan;
static cacs_mutex mtx;

static void producer(void *arg) {
  char buf[200];
  (void)arg;
  fill(buf, 200, 40);
  for (int i = 0; i < 50; i++) {
    char item[16];
    fill(item, 16, i);
    cacs_chan_send(chan, item, CACS_FOREVER); // blocks: capacity 1
  }
  check(buf, 200, 40);
}

static void consumer(void *arg) {
  char buf[300];
  (void)arg;
  fill(buf, 300, 41);
  for (int i = 0; i < 50; i++) {
    char item[16];
    cacs_chan_recv(chan, item, CACS_FOREVER);
    check(item, 16, i);
  }
  check(buf, 300, 41);
}

static void locker(void *arg) {
  int tag = (int)(intptr_t)arg;
  char buf[128];
  fill(buf, 128, tag);
  for (int i = 0; i < 5; i++) {
    cacs_mutex_lock(&mtx, CACS_FOREVER);
    char held[64];
    fill(held, 64, tag + i);
    cacs_sleep(100); // parks while holding: the others wait on the mutex
    check(held, 64, tag + i);
    cacs_mutex_unlock(&mtx);
  }
  check(buf, 128, tag);
}

static void sync_waits(void) {
  long before = checked, bad0 = bad;
  chan = cacs_chan_create(16, 1, 0);
  cacs_mutex_init(&mtx);
  cacs_coro *e = cacs_create(early, 0, 0);
  cacs_coro *c[5];
  c[0] = cacs_create(consumer, 0, 0);
  c[1] = cacs_create(producer, 0, 0);
  for (int i = 2; i < 5; i++)
    c[i] = cacs_create(locker, (void *)(intptr_t)(50 + i), 0);
  cacs_join(e);
  cacs_coro *l = cacs_create(late, 0, 0);
  cacs_join(c[1]);
  cacs_join(c[3]);
  cacs_join(c[0]);
  cacs_join(c[4]);
  cacs_join(c[2]);
  cacs_join(l);
  cacs_chan_destroy(chan);
  printf("sync: checked=%ld bad=%ld\n", checked - before, bad - bad0);
}

// --- descriptor I/O: the readers wait in the service coroutine's poll -------

static int pipe_fd[2];

static void pipe_writer(void *arg) {
  char buf[512];
  (void)arg;
  fill(buf, 512, 80);
  for (int i = 0; i < 16; i++) {
    char chunk[64];
    fill(chunk, 64, i);
    cacs_sleep(200); // the reader waits for data meanwhile
    cacs_write_all(pipe_fd[1], chunk, 64, CACS_FOREVER);
  }
  check(buf, 512, 80);
  cacs_close(pipe_fd[1]);
}

static void pipe_reader(void *arg) {
  char buf[256];
  (void)arg;
  fill(buf, 256, 81);
  for (int i = 0; i < 16; i++) {
    char chunk[64];
    size_t got = 0;
    while (got < 64) {
      ssize_t n = cacs_read(pipe_fd[0], chunk + got, 64 - got, CACS_FOREVER);
      if (n <= 0)
        break;
      got += (size_t)n;
    }
    check(chunk, 64, i);
  }
  check(buf, 256, 81);
}

static void descriptor_io(void) {
  long before = checked, bad0 = bad;
  if (pipe(pipe_fd) != 0)
    return;
  cacs_coro *e = cacs_create(early, 0, 0);
  cacs_coro *r = cacs_create(pipe_reader, 0, 0);
  cacs_coro *w = cacs_create(pipe_writer, 0, 0);
  cacs_join(e);
  cacs_coro *l = cacs_create(late, 0, 0);
  cacs_join(w);
  cacs_join(r);
  cacs_join(l);
  cacs_close(pipe_fd[0]);
  printf("io: checked=%ld bad=%ld\n", checked - before, bad - bad0);
}

// --- generators -------------------------------------------------------------

static uint64_t yield_here(cacs_gen *g, uint64_t v) {
  return cacs_gen_yield(g, v);
}

static uint64_t resume_here(cacs_gen *g) { return cacs_gen_resume(g, 0); }

static void gen_body(cacs_gen *g, void *arg) {
  gen_levels(g, (int)(intptr_t)arg, 4, yield_here);
}

// --- threads: each has its own scheduler and unsafe stacks -----------------

static void *thread_main(void *arg) {
  (void)arg;
  orders(0);
  return (void *)(intptr_t)bad;
}

int main(void) {
  repro();
  orders(1);
  sync_waits();
  descriptor_io();
  run_generators("generators", gen_body, resume_here);
  long tbad = 0;
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, thread_main, NULL);
  for (int i = 0; i < 2; i++) {
    void *r;
    pthread_join(t[i], &r);
    tbad += (long)(intptr_t)r;
  }
  printf("threads: bad=%ld\n", tbad);
  printf("%s\n", bad || tbad ? "FAIL" : "PASS");
  return bad || tbad;
}
