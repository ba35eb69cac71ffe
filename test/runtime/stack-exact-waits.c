// Exact stacks for coroutines that wait: a server-shaped entry (parse,
// handle, wait three calls deep: a sleep, a yield, a semaphore, a read of
// a pipe; its C library call moved to the system stack) has a bound at
// the link, which counts libcacs's switches by their budget
// (cacs/detail/contract.h), and runs on an exact stack with no guard.
// 1,000 of them, packed in their slabs, all suspended at once in each
// wait: every frame's locals and every neighbour's control block (the name
// at its top) stay intact. x86-64, and AArch64 under qemu.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -fcacs-stack-bounds -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t/p
// RUN: env CACS_IO_ENGINE=epoll %t/p | FileCheck %s
// RUN: %clang -O0 -fcacs-stack-bounds -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t/p0
// RUN: env CACS_IO_ENGINE=epoll %t/p0 | FileCheck %s
// RUN: %if qemu-aarch64 %{ \
// RUN:   %clang %aarch64_flags -O2 -fcacs-stack-bounds -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %t/a64 && \
// RUN:   env CACS_IO_ENGINE=epoll %run_aarch64 %t/a64 | FileCheck %s %}
//
// Breaking it: with a wait budget of 16 bytes (contract.h), the waits
// write into the neighbours' blocks and the frames' locals.

// CHECK: serve: exact, no guard
// CHECK-NEXT: 1000 serve: no guard 1000, adjacent 999, names intact 1000, frames intact 1000, replies right 1000, joined 1000
// CHECK-NEXT: PASS

#include "cacs/coro.h"
#include "cacs/io.h"
#include "cacs/stack.h"
#include "cacs/sync.h"
#include "cacs/sysstack.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

// In libcacs (hidden, linked statically): the stack a coroutine runs on.
const cacs_stack *cacs__coro_stack(const cacs_coro *c);

enum { N = 1000, PIPES = 20 };

typedef struct conn {
  int id;
  int fd; // a pipe's read end, or -1
  int broken;
  char reply[24];
} conn;

static cacs_sem sem;
static volatile int at_sem, at_read;

// Each frame fills its locals with a pattern of the connection and checks
// it after the calls below it, which waited.
#define FILL_LOCALS(buf, c)                                                    \
  for (unsigned i_ = 0; i_ < sizeof buf; ++i_)                                 \
  buf[i_] = (char)(i_ * 7 + (c)->id)
#define CHECK_LOCALS(buf, c)                                                   \
  for (unsigned i_ = 0; i_ < sizeof buf; ++i_)                                 \
    if (buf[i_] != (char)(i_ * 7 + (c)->id))                                   \
  (c)->broken = 1

__attribute__((noinline)) static void wait_for(conn *c) {
  volatile char buf[64];
  FILL_LOCALS(buf, c);
  cacs_sleep(100);
  cacs_yield();
  at_sem = at_sem + 1;
  cacs_sem_wait(&sem, -1);
  if (c->fd >= 0) {
    char ch = 0;
    at_read = at_read + 1;
    if (cacs_read(c->fd, &ch, 1, -1) != 1 || ch != 'r')
      c->broken = 1;
  }
  CHECK_LOCALS(buf, c);
}
__attribute__((noinline)) static void handle(conn *c) {
  volatile char buf[100];
  FILL_LOCALS(buf, c);
  wait_for(c);
  CHECK_LOCALS(buf, c);
}
__attribute__((noinline)) static void parse(conn *c) {
  volatile char buf[200];
  FILL_LOCALS(buf, c);
  handle(c);
  CHECK_LOCALS(buf, c);
}
static void format_reply(void *p) {
  conn *c = p;
  snprintf(c->reply, sizeof c->reply, "reply %d", c->id);
}
static void serve(void *p) {
  conn *c = p;
  parse(c);
  CACS_ON_SYSTEM_STACK(format_reply, c);
}

static cacs_coro *cs[N];
static conn conns[N];
static char names[N][40];
static int writers[PIPES];

int main(void) {
  size_t bytes = 0;
  cacs_sem_init(&sem, 0);
  if (!cacs_stack_exact(serve, &bytes)) {
    puts("serve: guarded");
    return 1;
  }
  int noguard = 0, adjacent = 0, intact = 0, frames = 0, right = 0;
  int joined = 0;
  char *prev = NULL;
  for (int i = 0; i < N; ++i) {
    conns[i] = (conn){i, -1, 0, ""};
    if (i % (N / PIPES) == 0) {
      int fds[2];
      if (pipe(fds) != 0)
        return 1;
      conns[i].fd = fds[0];
      writers[i / (N / PIPES)] = fds[1];
    }
    // 39 characters: the name fills its block's top bytes, the ones a
    // stack overflowing from the slot above would write first.
    snprintf(names[i], sizeof names[i], "n%038d", i);
    cacs_coro_attr a = {0, 0, 0, names[i]};
    if (!(cs[i] = cacs_create_ex(serve, &conns[i], &a)))
      return printf("create %d failed\n", i), 1;
    const cacs_stack *s = cacs__coro_stack(cs[i]);
    noguard += s->lo == s->map && (s->flags & CACS_STACK_NOGUARD);
    adjacent += prev && (char *)s->map == prev + s->map_size;
    prev = s->map;
  }
  if (noguard)
    puts("serve: exact, no guard");
  // All suspended in the semaphore, then all in the reads of the pipes.
  while (at_sem < N)
    cacs_yield();
  int named[N];
  for (int i = 0; i < N; ++i)
    named[i] = !strcmp(cacs_name(cs[i]), names[i]);
  for (int i = 0; i < N; ++i)
    cacs_sem_post(&sem);
  while (at_read < PIPES)
    cacs_yield();
  for (int i = 0; i < PIPES; ++i)
    if (write(writers[i], "r", 1) != 1)
      return 1;
  for (int i = 0; i < N; ++i) {
    intact += named[i] && !strcmp(cacs_name(cs[i]), names[i]);
    joined += cacs_join(cs[i]) == 0;
    char want[24];
    snprintf(want, sizeof want, "reply %d", i);
    frames += !conns[i].broken;
    right += !strcmp(conns[i].reply, want);
  }
  printf("%d serve: no guard %d, adjacent %d, names intact %d, frames intact "
         "%d, replies right %d, joined %d\n",
         N, noguard, adjacent, intact, frames, right, joined);
  int bad =
      noguard != N || intact != N || frames != N || right != N || joined != N;
  puts(bad ? "FAIL" : "PASS");
  return bad;
}
