// The stack budgets of cacs/detail/contract.h hold: every switching and
// waiting call of libcacs, on each of its paths (the fast and the slow
// switch, the first wait's timer heap and service coroutine, the I/O
// module's first wait, contention on each primitive), uses no more of the
// caller's stack, below the stack pointer at the call, than its budget:
// CACS_CONTRACT_YIELD_STACK_BUDGET for cacs_yield,
// CACS_CONTRACT_PARK_STACK_BUDGET for the waits that move no data
// (cacs/coro.h's, cacs/sync.h's, cacs_wait_fd, also as a thread's first
// wait), CACS_CONTRACT_WAIT_STACK_BUDGET for the I/O calls that transfer,
// and CACS_CONTRACT_SYSTEM_STACK_BUDGET for cacs_on_system_stack. The stack
// bounds of -fcacs-stack-bounds count these budgets as the calls' whole
// use, so a call that grows past its budget writes into the neighbour of
// an exact stack: this test fails first. Linked as -fcacs-stack-bounds links
// (-z now: no lazy binding, whose resolver would run on the caller's stack).
// Both I/O engines; x86-64, and AArch64 under qemu.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -mllvm -cacs-cold-call-shield=false -Wl,-z,now -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t/p
// RUN: env CACS_IO_ENGINE=epoll %t/p | FileCheck %s
// RUN: %if io-uring %{ env CACS_IO_ENGINE=uring %t/p | FileCheck %s %}
// RUN: env CACS_IO_ENGINE=epoll %t/p read-first | FileCheck %s --check-prefix=FIRST
// RUN: %if io-uring %{ env CACS_IO_ENGINE=uring %t/p read-first | FileCheck %s --check-prefix=FIRST %}
// RUN: env CACS_IO_ENGINE=epoll %t/p wait-fd-first | FileCheck %s --check-prefix=FIRSTFD
// RUN: %if io-uring %{ env CACS_IO_ENGINE=uring %t/p wait-fd-first | FileCheck %s --check-prefix=FIRSTFD %}
// RUN: env CACS_IO_ENGINE=epoll %t/p wait-fd-high | FileCheck %s --check-prefix=HIGHFD
// RUN: env CACS_IO_ENGINE=epoll CACS_IO_POLL_MAX=0 %t/p | FileCheck %s
// RUN: env CACS_IO_ENGINE=epoll CACS_IO_POLL_MAX=0 %t/p wait-fd-first | FileCheck %s --check-prefix=FIRSTFD
// RUN: env CACS_IO_ENGINE=epoll CACS_IO_POLL_MAX=1 %t/p wait-fd-first | FileCheck %s --check-prefix=FIRSTFD
// RUN: %if io-uring %{ env CACS_IO_ENGINE=uring %t/p wait-fd-high | FileCheck %s --check-prefix=HIGHFD %}
// RUN: %clang -O2 -mllvm -cacs-cold-call-shield=false -DCACS_YIELD_SAVE_BP=1 -Wl,-z,now -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t/bp
// RUN: env CACS_IO_ENGINE=epoll %t/bp | FileCheck %s
// RUN: env CACS_IO_ENGINE=epoll %t/bp wait-fd-first | FileCheck %s --check-prefix=FIRSTFD
// RUN: %if io-uring %{ env CACS_IO_ENGINE=uring %t/bp wait-fd-first | FileCheck %s --check-prefix=FIRSTFD %}
// RUN: %if qemu-aarch64 %{ \
// RUN:   %clang %aarch64_flags -O2 -mllvm -cacs-cold-call-shield=false -Wl,-z,now -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %t/a64 && \
// RUN:   env CACS_IO_ENGINE=epoll %run_aarch64 %t/a64 | FileCheck %s && \
// RUN:   env CACS_IO_ENGINE=epoll %run_aarch64 %t/a64 read-first | FileCheck %s --check-prefix=FIRST && \
// RUN:   env CACS_IO_ENGINE=epoll %run_aarch64 %t/a64 wait-fd-first | FileCheck %s --check-prefix=FIRSTFD && \
// RUN:   env CACS_IO_ENGINE=epoll %run_aarch64 %t/a64 wait-fd-high | FileCheck %s --check-prefix=HIGHFD && \
// RUN:   env CACS_IO_ENGINE=epoll CACS_IO_POLL_MAX=0 %run_aarch64 %t/a64 wait-fd-first | FileCheck %s --check-prefix=FIRSTFD && \
// RUN:   env CACS_IO_ENGINE=epoll CACS_IO_POLL_MAX=1 %run_aarch64 %t/a64 wait-fd-first | FileCheck %s --check-prefix=FIRSTFD && \
// RUN:   %clang %aarch64_flags -O2 -mllvm -cacs-cold-call-shield=false -DCACS_YIELD_SAVE_BP=1 -Wl,-z,now -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %t/a64bp && \
// RUN:   env CACS_IO_ENGINE=epoll %run_aarch64 %t/a64bp | FileCheck %s && \
// RUN:   env CACS_IO_ENGINE=epoll %run_aarch64 %t/a64bp wait-fd-first | FileCheck %s --check-prefix=FIRSTFD %}
//
// Breaking it: a budget of 64 bytes (contract.h) makes every wait exceed
// it; a 2 KiB local array in cacs__park_timeout_pn's path makes the
// timed waits exceed it. wait-fd-high: a thread's first wait on a
// descriptor numbered 1,000 grows the records' tables to 1,024 entries, a
// realloc in malloc's deeper paths; with that realloc on the coroutine's
// stack (io_op.h's fd_table_grow before it moved to the thread's stack) it
// used 768 bytes of AArch64's budget, then 704, and failed (on x86-64 456
// on epoll and 472 on io_uring, within the 512 of then; over the 432 of
// session 33). The epoll engine's rarer modes: CACS_IO_POLL_MAX=0 (epoll
// mode from the start: each descriptor's registration inside its first
// wait) and 1 (the move from poll(2) to epoll inside the thread's first
// wait, as the poll set's growth past its size runs: the same deep call).
// Waits that time out: their deadline's end and unlinking.
// Built with the safety pass's cold-call shield off: every call is then
// made by probe() itself, whose stack pointer MEASURE reads, so the
// numbers are below the entry's call, its return address included, as a
// budget counts (with the shield on, each counted the shield's frame too:
// 48 bytes on x86-64, 160 on AArch64). CACS_YIELD_SAVE_BP=1: the calls go
// through the _pn_bp entries, which carry the same budgets (cacs/sync.h's
// waits, which have none, then call their C entries: no budget is theirs,
// their numbers are only within it). Breaking it (session 40): the x86-64
// wait_fd budget at 175 fails the _pn_bp build's first wait (176), at 159
// the direct build's (160); on main the shield's 48 bytes made these 208.

// FIRST: first wait a read: within the budget
// FIRST-NEXT: PASS

// FIRSTFD: first wait a wait_fd: within the budget
// FIRSTFD-NEXT: PASS

// HIGHFD: first wait a wait_fd on a high descriptor: within the budget
// HIGHFD-NEXT: PASS

// CHECK-NOT: OVER
// CHECK: yield: within the budget
// CHECK-NEXT: yield slow: within the budget
// CHECK-NEXT: yield shared: within the budget
// CHECK-NEXT: park: within the budget
// CHECK-NEXT: first park_timeout: within the budget
// CHECK-NEXT: park_timeout: within the budget
// CHECK-NEXT: sleep: within the budget
// CHECK-NEXT: sleep 0: within the budget
// CHECK-NEXT: join: within the budget
// CHECK-NEXT: first read: within the budget
// CHECK-NEXT: read: within the budget
// CHECK-NEXT: write: within the budget
// CHECK-NEXT: wait_fd: within the budget
// CHECK-NEXT: wait_fd, timed: within the budget
// CHECK-NEXT: wait_fd, timed out: within the budget
// CHECK-NEXT: accept: within the budget
// CHECK-NEXT: connect: within the budget
// CHECK-NEXT: mutex_lock: within the budget
// CHECK-NEXT: mutex_lock, timed: within the budget
// CHECK-NEXT: cond_wait: within the budget
// CHECK-NEXT: cond_wait, timed: within the budget
// CHECK-NEXT: sem_wait: within the budget
// CHECK-NEXT: sem_wait, timed: within the budget
// CHECK-NEXT: waitgroup_wait: within the budget
// CHECK-NEXT: chan_recv: within the budget
// CHECK-NEXT: chan_recv, timed: within the budget
// CHECK-NEXT: chan_send: within the budget
// CHECK-NEXT: chan_send, timed: within the budget
// CHECK-NEXT: chan_recv, shared: within the budget
// CHECK-NEXT: chan_recv, shared, timed: within the budget
// CHECK-NEXT: xsem_wait: within the budget
// CHECK-NEXT: xsem_wait, timed: within the budget
// CHECK-NEXT: on_system_stack: within the budget
// CHECK-NEXT: PASS

#include "cacs/coro.h"
#include "cacs/io.h"
#include "cacs/stack.h"
#include "cacs/sync.h"
#include "cacs/sysstack.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "Inputs/stack-budget-net.h"
#include "Inputs/stack-budget.h"

#define YIELD CACS_CONTRACT_YIELD_STACK_BUDGET
#define WAIT CACS_CONTRACT_WAIT_STACK_BUDGET
#define PARK CACS_CONTRACT_PARK_STACK_BUDGET
#define WAIT_FD CACS_CONTRACT_WAIT_FD_STACK_BUDGET

static int bad;
static cacs_coro *prober;
static int pipefd[2];
static cacs_mutex mu;
static cacs_cond cv;
static cacs_sem sem;
static cacs_waitgroup wg;
static cacs_chan *ch;
static cacs_chan *sch; // CACS_CHAN_SHARED
static cacs_xsem xs;
static volatile int step;
static int lfd = -1; // a TCP listener on the loopback
static struct sockaddr_in laddr;

// The prober's partner: each round it lets the prober block, then
// releases it the way the round needs.
static void partner(void *arg) {
  (void)arg;
  char c = 'x';
  int item = 1;
  for (int round = 0;; ++round) {
    while (step == 0)
      cacs_yield();
    int s = step;
    step = 0;
    switch (s) {
    case 1: // park
      cacs_wake(prober);
      break;
    case 2: // read, wait_fd
      if (write(pipefd[1], &c, 1) != 1)
        bad = 1;
      break;
    case 3: // mutex_lock: held across the prober's attempt
      cacs_mutex_lock(&mu, -1);
      cacs_yield();
      cacs_yield();
      cacs_mutex_unlock(&mu);
      break;
    case 4:
      cacs_mutex_lock(&mu, -1);
      cacs_cond_signal(&cv);
      cacs_mutex_unlock(&mu);
      break;
    case 5:
      cacs_sem_post(&sem);
      break;
    case 6:
      cacs_waitgroup_done(&wg);
      break;
    case 7:
      cacs_chan_send(ch, &item, -1);
      break;
    case 8:
      cacs_chan_recv(ch, &item, -1);
      break;
    case 9:
      cacs_xsem_post(&xs);
      break;
    case 10:
      cacs_chan_send(sch, &item, -1);
      break;
    case 11: { // accept: a connection (the loopback's completes at once)
      int s = socket(AF_INET, SOCK_STREAM, 0);
      if (s < 0 || connect(s, (struct sockaddr *)&laddr, sizeof laddr) != 0)
        bad = 1;
      close(s);
      break;
    }
    case 100:
      return;
    }
  }
}

// Yields until `turn` is its number.
static volatile intptr_t turn;
static void lingerer(void *arg) {
  while (turn != (intptr_t)arg)
    cacs_yield();
}

static volatile int helpers_stop;
static void helper(void *arg) {
  (void)arg;
  while (!helpers_stop)
    cacs_yield();
}

static void on_system(void *arg) {
  char buf[64];
  snprintf(buf, sizeof buf, "%p", arg);
}

// Each wait, with the partner releasing it after the prober blocked.
#define RELEASED(n, call) (step = (n), (call))
// The timeout of the timed waits: never reached.
#define LONG (10 * 1000 * 1000)

static int read_first;
static int high_fd = -1; // pipefd[0]'s copy, numbered 1,000 (wait-fd-high)

__attribute__((noinline)) static void probe(void) {
  char c;
  int item = 0;
  if (read_first == 1) {
    // The thread's first wait an I/O wait: the I/O module's setup and the
    // service coroutine's creation in one call.
    MEASURE("first wait a read", WAIT, 1,
            RELEASED(2, cacs_read(pipefd[0], &c, 1, -1)));
    step = 100;
    return;
  }
  if (read_first == 3) {
    // The same, on a descriptor numbered past every table's first size:
    // the records' tables grow (realloc) inside the wait.
    MEASURE("first wait a wait_fd on a high descriptor", WAIT_FD, 1,
            (RELEASED(2, cacs_wait_fd(high_fd, EPOLLIN, LONG)),
             (void)!read(high_fd, &c, 1)));
    step = 100;
    return;
  }
  if (read_first == 2) {
    // The same setup in the wait for readiness, timed (the timer heap too).
    MEASURE("first wait a wait_fd", WAIT_FD, 1,
            (RELEASED(2, cacs_wait_fd(pipefd[0], EPOLLIN, LONG)),
             (void)!read(pipefd[0], &c, 1)));
    step = 100;
    return;
  }
  MEASURE("yield", YIELD, 0, cacs_yield());
  {
    cacs_coro_attr a = {0, 0, CACS_CORO_SAVE_FPENV, NULL};
    helpers_stop = 0;
    cacs_coro *f = cacs_create_ex(helper, NULL, &a);
    MEASURE("yield slow", YIELD, 0, cacs_yield());
    helpers_stop = 1;
    cacs_join(f);
  }
  {
    // A shared-stack coroutine alive: the switch goes through the
    // switcher stack.
    cacs_coro_attr a = {0, CACS_STACK_SHARED, 0, NULL};
    helpers_stop = 0;
    cacs_coro *f = cacs_create_ex(helper, NULL, &a);
    MEASURE("yield shared", YIELD, 0, cacs_yield());
    helpers_stop = 1;
    cacs_join(f);
  }
  MEASURE("park", PARK, 0, RELEASED(1, cacs_park()));
  MEASURE("first park_timeout", PARK, 1, cacs_park_timeout(1000));
  MEASURE("park_timeout", PARK, 0, cacs_park_timeout(1000));
  MEASURE("sleep", PARK, 0, cacs_sleep(1000));
  MEASURE("sleep 0", PARK, 0, cacs_sleep(0));
  {
    // Each join waits for a coroutine created before the measure (its
    // creation is not the join's), which ends only once its join began.
    cacs_coro *q[2] = {cacs_create(lingerer, (void *)1, 0),
                       cacs_create(lingerer, (void *)2, 0)};
    intptr_t k = 0;
    MEASURE("join", PARK, 0, (turn = k + 1, cacs_join(q[k++])));
  }
  MEASURE("first read", WAIT, 1, RELEASED(2, cacs_read(pipefd[0], &c, 1, -1)));
  MEASURE("read", WAIT, 0, RELEASED(2, cacs_read(pipefd[0], &c, 1, -1)));
  MEASURE("write", WAIT, 0, cacs_write(pipefd[1], &c, 1, -1));
  char two[2];
  if (read(pipefd[0], two, 2) != 2) // what the writes wrote
    bad = 1;
  MEASURE("wait_fd", WAIT_FD, 0,
          (RELEASED(2, cacs_wait_fd(pipefd[0], EPOLLIN, -1)),
           (void)!read(pipefd[0], &c, 1)));
  MEASURE("wait_fd, timed", WAIT_FD, 0,
          (RELEASED(2, cacs_wait_fd(pipefd[0], EPOLLIN, LONG)),
           (void)!read(pipefd[0], &c, 1)));
  MEASURE("wait_fd, timed out", WAIT_FD, 0,
          (void)(cacs_wait_fd(pipefd[0], EPOLLIN, 1000) == 0 && (bad = 1)));
  MEASURE_ACCEPT_CONNECT(lfd, laddr, WAIT, step = 11, bad);
  // The waits of cacs/sync.h, each untimed and (but the wait group's)
  // timed: a deadline's park; on a shared channel too.
  MEASURE("mutex_lock", PARK, 0,
          (step = 3, cacs_yield(), cacs_mutex_lock(&mu, -1),
           cacs_mutex_unlock(&mu)));
  MEASURE("mutex_lock, timed", PARK, 0,
          (step = 3, cacs_yield(), cacs_mutex_lock(&mu, LONG),
           cacs_mutex_unlock(&mu)));
  MEASURE("cond_wait", PARK, 0,
          (cacs_mutex_lock(&mu, -1), RELEASED(4, cacs_cond_wait(&cv, &mu, -1)),
           cacs_mutex_unlock(&mu)));
  MEASURE("cond_wait, timed", PARK, 0,
          (cacs_mutex_lock(&mu, -1),
           RELEASED(4, cacs_cond_wait(&cv, &mu, LONG)),
           cacs_mutex_unlock(&mu)));
  MEASURE("sem_wait", PARK, 0, RELEASED(5, cacs_sem_wait(&sem, -1)));
  MEASURE("sem_wait, timed", PARK, 0, RELEASED(5, cacs_sem_wait(&sem, LONG)));
  MEASURE(
      "waitgroup_wait", PARK, 0,
      (cacs_waitgroup_add(&wg, 1), RELEASED(6, cacs_waitgroup_wait(&wg, -1))));
  MEASURE("chan_recv", PARK, 0, RELEASED(7, cacs_chan_recv(ch, &item, -1)));
  MEASURE("chan_recv, timed", PARK, 0,
          RELEASED(7, cacs_chan_recv(ch, &item, LONG)));
  MEASURE("chan_send", PARK, 0,
          (cacs_chan_send(ch, &item, -1),
           RELEASED(8, cacs_chan_send(ch, &item, -1)),
           cacs_chan_recv(ch, &item, -1)));
  MEASURE("chan_send, timed", PARK, 0,
          (cacs_chan_send(ch, &item, -1),
           RELEASED(8, cacs_chan_send(ch, &item, LONG)),
           cacs_chan_recv(ch, &item, -1)));
  MEASURE("chan_recv, shared", PARK, 0,
          RELEASED(10, cacs_chan_recv(sch, &item, -1)));
  MEASURE("chan_recv, shared, timed", PARK, 0,
          RELEASED(10, cacs_chan_recv(sch, &item, LONG)));
  MEASURE("xsem_wait", PARK, 0, RELEASED(9, cacs_xsem_wait(&xs, -1)));
  MEASURE("xsem_wait, timed", PARK, 0, RELEASED(9, cacs_xsem_wait(&xs, LONG)));
  MEASURE("on_system_stack", CACS_CONTRACT_SYSTEM_STACK_BUDGET, 0,
          CACS_ON_SYSTEM_STACK(on_system, &item));
  step = 100;
}

static void prober_main(void *arg) {
  (void)arg;
  probe();
}

int main(int argc, char **argv) {
  read_first = argc > 1 && !strcmp(argv[1], "read-first")      ? 1
               : argc > 1 && !strcmp(argv[1], "wait-fd-first") ? 2
               : argc > 1 && !strcmp(argv[1], "wait-fd-high")  ? 3
                                                               : 0;
  if (pipe(pipefd) != 0)
    return 1;
  if (read_first == 3 && (high_fd = dup2(pipefd[0], 1000)) < 0)
    return puts("no descriptor 1000 (RLIMIT_NOFILE)"), 1;
  cacs_mutex_init(&mu);
  cacs_cond_init(&cv);
  cacs_sem_init(&sem, 0);
  cacs_waitgroup_init(&wg);
  if ((lfd = budget_listener(&laddr)) < 0)
    return puts("no loopback listener"), 1;
  ch = cacs_chan_create(sizeof(int), 1, 0);
  sch = cacs_chan_create(sizeof(int), 1, CACS_CHAN_SHARED);
  if (!ch || !sch || cacs_xsem_init(&xs, 0) != 0)
    return 1;
  prober = cacs_create(prober_main, NULL, 0);
  cacs_coro *p = cacs_create(partner, NULL, 0);
  cacs_join(prober);
  cacs_join(p);
  bad |= budget_bad;
  puts(bad ? "FAIL" : "PASS");
  return bad;
}
