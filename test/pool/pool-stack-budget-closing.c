// The stack budget of cacs_wait_fd (cacs/detail/contract.h) holds in a pool
// coroutine on its rarest path too: a wait on a descriptor that a
// cacs_close elsewhere has forgotten and not yet closed. The pool's waits
// then do not register (the close would leave the epoll set, or the ring's
// request, unseen): they yield until the closer is done and return 0 (the
// caller tries again). That yield runs inside the wait's frame, on the
// coroutine's stack, which may be an exact one: it must fit the budget as
// the wait's park does, and no deeper than that park: the budget's margin
// over the measured paths is not this path's to take. The close(2) of
// cacs_close is this program's own
// (it is linked before the C library's), which holds the descriptor open,
// forgotten, until the prober has made its wait: no timing, one path.
// Both of the pool's engines (epoll, and io_uring where it runs: the ring's
// poll request); x86-64, and AArch64 under qemu (epoll).
// As test/pool/pool-stack-budget.c, linked as -fcacs-stack-bounds links.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -mllvm -cacs-cold-call-shield=false -Wl,-z,now -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t/p
// RUN: env CACS_IO_ENGINE=epoll %t/p | FileCheck %s
// RUN: %if io-uring %{ env CACS_IO_ENGINE=uring %t/p | FileCheck %s %}
// RUN: %if qemu-aarch64 %{ \
// RUN:   %clang %aarch64_flags -O2 -mllvm -cacs-cold-call-shield=false -Wl,-z,now -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %t/a64 && \
// RUN:   env CACS_IO_ENGINE=epoll %run_aarch64 %t/a64 | FileCheck %s %}
//
// Breaking it: with the yield a call of cacs__pool_yield (its frame and
// the switch's register saves below the wait's; libcacs before session
// 39) the closing wait used 216 bytes on epoll (the parked wait 168) and
// 248 on io_uring (200), the whole budget of 248, on x86-64; 448 on
// AArch64 (336), its whole budget: DEEPER.

// CHECK-NOT: OVER
// CHECK-NOT: DEEPER
// CHECK: wait_fd, timed out: within the budget
// CHECK-NEXT: wait_fd, closing: within the budget
// CHECK-NEXT: closing: no deeper than the parked wait
// CHECK-NEXT: PASS

#define _GNU_SOURCE 1
#include "cacs/io.h"
#include "cacs/pool.h"

#include <stdio.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../runtime/Inputs/stack-budget.h"

static int bad;
static int pipefd[2];
// The prober asks for the close, the close says it began, the prober says
// its wait returned.
static volatile int want_close, in_close, waited;

// libcacs's close(2), the program's: the read end's, while the prober has
// not waited, waits for it (forgotten and still open: the closing window).
int close(int fd) {
  if (fd == pipefd[0] && want_close) {
    __atomic_store_n(&in_close, 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&waited, __ATOMIC_ACQUIRE))
      usleep(100);
  }
  return (int)syscall(SYS_close, fd);
}

// A parked wait that its timeout ends (nothing is written): it always
// parks, the path the closing one must not be deeper than.
#define PARKED_WAIT()                                                          \
  (void)(cacs_wait_fd(pipefd[0], EPOLLIN, 1000) == 0 && (bad = 1))

__attribute__((noinline)) static void probe(void) {
  PARKED_WAIT(); // the descriptor's record, and its registration
  MEASURE("wait_fd, timed out", CACS_CONTRACT_WAIT_FD_STACK_BUDGET, 0,
          PARKED_WAIT());
  size_t parked = budget_last;
  __atomic_store_n(&want_close, 1, __ATOMIC_RELEASE);
  while (!__atomic_load_n(&in_close, __ATOMIC_ACQUIRE)) {
  }
  int r = 0;
  MEASURE("wait_fd, closing", CACS_CONTRACT_WAIT_FD_STACK_BUDGET, 1,
          r = cacs_wait_fd(pipefd[0], EPOLLIN, -1));
  __atomic_store_n(&waited, 1, __ATOMIC_RELEASE);
  if (r != 0) // the retry's 0 (the caller's next call finds EBADF)
    bad = 1, printf("wait_fd, closing: %d\n", r);
  if (budget_last > parked)
    bad = 1, printf("closing: DEEPER than the parked wait (%zu > %zu)\n",
                    budget_last, parked);
  else
    puts("closing: no deeper than the parked wait");
}

static volatile int done;

static void prober(void *arg) {
  (void)arg;
  probe();
  done = 1;
}

int main(void) {
  if (pipe(pipefd) != 0)
    return 1;
  cacs_pool_attr a = {1, 0, CACS_POOL_MIGRATE_UNSTARTED, 0};
  cacs_pool *p = cacs_pool_create_ex(&a);
  cacs_pool_task *t = p ? cacs_pool_spawn(p, prober, NULL) : NULL;
  if (!t)
    return 1;
  while (!done) {
    if (want_close && !in_close && cacs_close(pipefd[0]) != 0)
      return 1;
    usleep(100);
  }
  if (cacs_pool_join(t) != 0 || cacs_pool_destroy(p) != 0)
    return 1;
  bad |= budget_bad;
  puts(bad ? "FAIL" : "PASS");
  return bad;
}
