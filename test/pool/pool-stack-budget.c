// The stack budgets of cacs/detail/contract.h hold in a pool coroutine
// too, where a pool coroutine's entry may now run on an exact stack (its
// bound counts each call by its budget): the calls of libcacs that a pool
// coroutine makes through the same declarations take the pool's paths
// (cacs/io.h waits through the pool's poller, cacs_yield returns at once,
// cacs_on_system_stack finds the worker's stack), and each uses no more of
// the caller's stack, below the stack pointer at the call, than its
// budget: the first wait of the pool (its poller's creation), a read, a
// write, a wait for readiness (untimed, timed and timing out: the
// check for a descriptor closed behind the pool's back), an accept and a
// connect, a timed read (the
// worker's timer heap; on io_uring a linked timeout); and
// the pool's own waits, which carry the pool's wait budget (cacs/pool.h):
// cacs_pool_yield, cacs_pool_sleep, cacs_pool_join of a coroutine still
// running, in a pool coroutine and outside one.
// As test/runtime/stack-budget.c, linked as -fcacs-stack-bounds links.
// Both pool modes; x86-64, and AArch64 under qemu; and the pool's
// io_uring engine (a ring per worker, where io_uring can run: the reads are
// requests on it), whatever engine the suite's pass runs.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -mllvm -cacs-cold-call-shield=false -Wl,-z,now -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t/p
// RUN: %t/p unstarted | FileCheck %s
// RUN: %t/p running | FileCheck %s
// RUN: env CACS_IO_ENGINE=uring %t/p running | FileCheck %s
// RUN: %clang -O2 -mllvm -cacs-cold-call-shield=false -DCACS_YIELD_SAVE_BP=1 -Wl,-z,now -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t/bp
// RUN: %t/bp running | FileCheck %s
// RUN: env CACS_IO_ENGINE=uring %t/bp running | FileCheck %s
// RUN: %if qemu-aarch64 %{ \
// RUN:   %clang %aarch64_flags -O2 -mllvm -cacs-cold-call-shield=false -Wl,-z,now -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %t/a64 && \
// RUN:   %run_aarch64 %t/a64 running | FileCheck %s %}
//
// Breaking it: a wait budget of 256 bytes (contract.h) makes the first
// read exceed it. Built with the cold-call shield off and once through the
// _pn_bp entries, as test/runtime/stack-budget.c is (the numbers below
// the entry's call, its return address included).

// CHECK-NOT: OVER
// CHECK: first read: within the budget
// CHECK-NEXT: read: within the budget
// CHECK-NEXT: read, timed: within the budget
// CHECK-NEXT: write: within the budget
// CHECK-NEXT: wait_fd: within the budget
// CHECK-NEXT: wait_fd, timed: within the budget
// CHECK-NEXT: wait_fd, timed out: within the budget
// CHECK-NEXT: accept: within the budget
// CHECK-NEXT: connect: within the budget
// CHECK-NEXT: yield: within the budget
// CHECK-NEXT: on_system_stack: within the budget
// CHECK-NEXT: pool_yield: within the budget
// CHECK-NEXT: pool_sleep: within the budget
// CHECK-NEXT: pool_sleep 0: within the budget
// CHECK-NEXT: pool_join: within the budget
// CHECK-NEXT: outside: pool_yield: within the budget
// CHECK-NEXT: outside: pool_sleep: within the budget
// CHECK-NEXT: outside: pool_join: within the budget
// CHECK-NEXT: PASS

#include "cacs/coro.h"
#include "cacs/io.h"
#include "cacs/pool.h"
#include "cacs/sysstack.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "../runtime/Inputs/stack-budget-net.h"
#include "../runtime/Inputs/stack-budget.h"

static int bad;

#define WAIT CACS_CONTRACT_WAIT_STACK_BUDGET
#define PARK CACS_CONTRACT_PARK_STACK_BUDGET
#define WAIT_FD CACS_CONTRACT_WAIT_FD_STACK_BUDGET
#define POOL_WAIT CACS_CONTRACT_POOL_WAIT_STACK_BUDGET

static int pipefd[2];
// The main thread writes a byte once the prober asks (it then waits), or
// connects to the listener (want_conn).
static volatile int want_byte, want_conn;
static int lfd = -1; // a TCP listener on the loopback
static struct sockaddr_in laddr;

static cacs_pool *pool;

static void napper(void *arg) {
  (void)arg;
  cacs_pool_sleep(5000);
}

static void on_system(void *arg) {
  char buf[64];
  snprintf(buf, sizeof buf, "%p", arg);
}

// The prober parks in the read; main's write ends it.
#define RELEASED(call)                                                         \
  (__atomic_store_n(&want_byte, 1, __ATOMIC_RELEASE), (call))

__attribute__((noinline)) static void probe(void) {
  char c;
  int item = 0;
  MEASURE("first read", WAIT, 1, RELEASED(cacs_read(pipefd[0], &c, 1, -1)));
  MEASURE("read", WAIT, 0, RELEASED(cacs_read(pipefd[0], &c, 1, -1)));
  MEASURE("read, timed", WAIT, 0,
          RELEASED(cacs_read(pipefd[0], &c, 1, 10 * 1000 * 1000)));
  MEASURE("write", WAIT, 0, cacs_write(pipefd[1], &c, 1, -1));
  char two[2];
  if (read(pipefd[0], two, 2) != 2) // what the writes wrote
    bad = 1;
  MEASURE("wait_fd", WAIT_FD, 0,
          (RELEASED(cacs_wait_fd(pipefd[0], EPOLLIN, -1)),
           (void)!read(pipefd[0], &c, 1)));
  MEASURE("wait_fd, timed", WAIT_FD, 0,
          (RELEASED(cacs_wait_fd(pipefd[0], EPOLLIN, 10 * 1000 * 1000)),
           (void)!read(pipefd[0], &c, 1)));
  MEASURE("wait_fd, timed out", WAIT_FD, 0,
          (void)(cacs_wait_fd(pipefd[0], EPOLLIN, 1000) == 0 && (bad = 1)));
  MEASURE_ACCEPT_CONNECT(
      lfd, laddr, WAIT, __atomic_store_n(&want_conn, 1, __ATOMIC_RELEASE), bad);
  MEASURE("yield", CACS_CONTRACT_YIELD_STACK_BUDGET, 0, cacs_yield());
  MEASURE("on_system_stack", CACS_CONTRACT_SYSTEM_STACK_BUDGET, 0,
          CACS_ON_SYSTEM_STACK(on_system, &item));
  MEASURE("pool_yield", POOL_WAIT, 0, cacs_pool_yield());
  MEASURE("pool_sleep", POOL_WAIT, 0, cacs_pool_sleep(1000));
  MEASURE("pool_sleep 0", POOL_WAIT, 0, cacs_pool_sleep(0));
  // Each join waits for a coroutine that is still asleep.
  cacs_pool_task *q[2];
  int k = 0;
  for (int i = 0; i < 2; ++i)
    q[i] = cacs_pool_spawn(pool, napper, NULL);
  MEASURE("pool_join", POOL_WAIT, 0, (void)(cacs_pool_join(q[k++]) && (bad = 1)));
}

static volatile int done;

static void prober(void *arg) {
  (void)arg;
  probe();
  done = 1;
}

int main(int argc, char **argv) {
  int running = argc > 1 && !strcmp(argv[1], "running");
  if (pipe(pipefd) != 0)
    return 1;
  cacs_pool_attr a = {
      2, 0, running ? CACS_POOL_MIGRATE_RUNNING : CACS_POOL_MIGRATE_UNSTARTED,
      0};
  if ((lfd = budget_listener(&laddr)) < 0)
    return puts("no loopback listener"), 1;
  cacs_pool *p = pool = cacs_pool_create_ex(&a);
  cacs_pool_task *t = p ? cacs_pool_spawn(p, prober, NULL) : NULL;
  if (!t)
    return 1;
  while (!done) {
    if (__atomic_exchange_n(&want_conn, 0, __ATOMIC_ACQUIRE)) {
      usleep(2000); // let it park
      int s = socket(AF_INET, SOCK_STREAM, 0);
      if (s < 0 || connect(s, (struct sockaddr *)&laddr, sizeof laddr) != 0)
        return 1;
      close(s);
    }
    if (__atomic_exchange_n(&want_byte, 0, __ATOMIC_ACQUIRE)) {
      usleep(2000); // let it park
      char c = 'x';
      if (write(pipefd[1], &c, 1) != 1)
        return 1;
    }
    usleep(100);
  }
  if (cacs_pool_join(t) != 0)
    return 1;
  // The same waits called outside a pool coroutine (a plain thread here; a
  // coroutine of cacs/coro.h takes the same path): they block the thread.
  MEASURE("outside: pool_yield", POOL_WAIT, 0, cacs_pool_yield());
  MEASURE("outside: pool_sleep", POOL_WAIT, 0, cacs_pool_sleep(1000));
  cacs_pool_task *q[2];
  int k = 0;
  for (int i = 0; i < 2; ++i)
    q[i] = cacs_pool_spawn(p, napper, NULL);
  MEASURE("outside: pool_join", POOL_WAIT, 0,
          (void)(cacs_pool_join(q[k++]) && (bad = 1)));
  if (cacs_pool_destroy(p) != 0)
    return 1;
  bad |= budget_bad;
  puts(bad ? "FAIL" : "PASS");
  return bad;
}
