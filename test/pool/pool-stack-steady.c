// A pool's steady state of spawn, park, run to the end and join makes no
// memory system call (issue 38: the stack cache, for pool coroutines too):
// after a warm-up, rounds of 100 coroutines on two workers, each yielding
// once so that a round holds 100 stacks at once, run under a seccomp
// filter that traps every thread's memory calls
// (../runtime/Inputs/trap-memory-calls.h). Guarded stacks (the default)
// and exact stacks (a bound the compiler proved: -fcacs-stack-bounds).
// (x86-64 only: the filter reads x86-64 registers.)
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t | FileCheck %s
// RUN: %clang -O2 -fcacs-stack-bounds -I%cacs_include %s %cacs_rt_x86_64 \
// RUN:   -lpthread -o %t.exact
// RUN: %t.exact | FileCheck %s
//
// The filter sees the workers' calls: with `probe` each coroutine makes
// one madvise call of its own.
// RUN: %t probe | FileCheck %s --check-prefix=PROBE
//
// Breaking it takes both caches off: cacs__pstack_put freeing every
// stack (cacs_stack_free) instead of keeping it in the worker's cache, and
// CACS_STACK_CACHE=0 (the thread's cache below it): 20,000 calls. Either
// cache alone keeps the steady state at 0.
//
// CHECK: memory system calls, 100 alive a round: 0
// CHECK-NEXT: PASS
// PROBE: memory system calls, 100 alive a round: 20000

#define _GNU_SOURCE 1
#include "../runtime/Inputs/trap-memory-calls.h"

#include "../runtime/Inputs/check.h"
#include "cacs/pool.h"

#include <sys/mman.h>

enum { ALIVE = 100, ROUNDS = 200 };

static cacs_pool *pool;
static long ran;
static int probe;

static void body(void *arg) {
  (void)arg;
  cacs_pool_yield();
  if (probe)
    madvise(NULL, 0, MADV_NORMAL);
  __atomic_fetch_add(&ran, 1, __ATOMIC_RELAXED);
}

static void round_(void) {
  cacs_pool_task *t[ALIVE];
  for (int i = 0; i < ALIVE; ++i)
    EXPECT((t[i] = cacs_pool_spawn(pool, body, NULL)) != NULL);
  for (int i = 0; i < ALIVE; ++i)
    if (t[i])
      EXPECT(cacs_pool_join(t[i]) == 0);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IONBF, 0); // printf allocates nothing later
  pool = cacs_pool_create(2);
  EXPECT(pool != NULL);
  if (!pool)
    return 1;
  for (int i = 0; i < ROUNDS; ++i) // warm up: stacks carved, caches filled
    round_();
  trap_memory_calls(1, 1);
  trapped = 0;
  probe = argc > 1 && !strcmp(argv[1], "probe");
  for (int i = 0; i < ROUNDS; ++i)
    round_();
  printf("memory system calls, %d alive a round: %ld\n", ALIVE, trapped);
  EXPECT(ran == 2L * ROUNDS * ALIVE);
  printf(failures ? "FAIL\n" : "PASS\n");
  return failures != 0;
}
