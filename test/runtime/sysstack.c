// CACS_ON_SYSTEM_STACK (cacs/sysstack.h): a call with a 256 KiB frame
// (qsort's comparator, printf's caller) runs from a coroutine whose stack
// is 16 KiB, its value, errno and a thread-local variable come back; it
// runs on the thread's stack (nested: a plain call); a signal during it
// is handled there; a pool coroutine's call runs on its worker's stack.
// The same frame without it overflows the coroutine's stack (`direct`).
// A switch inside the call aborts naming it (yield, a wait, a pool yield,
// and after a CACS_SYNC nested in it ends); a generator resumed from the
// thread's stack has no system stack to find and aborts naming the call;
// one resumed inside a call on the system stack that asks for it again
// aborts naming both (its frames would go over the outer call's: before,
// they did, and the outer call's frame was overwritten).
// The call's own block hides nothing of an enclosing CACS_SYNC: a switch
// after it, inside the CACS_SYNC, names the CACS_SYNC's line. A pool spawn
// inside a call from a coroutine starts after the call.
// (sysstack-aarch64.c: AArch64 under qemu; sysstack-tools.c: ASan, TSan,
// valgrind.)
//
// RUN: %clang -O2 -g -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t ok 2>&1 | FileCheck %s --check-prefix=OK
// RUN: not --crash %t direct 2>&1 | FileCheck %s --check-prefix=DIRECT
// RUN: not --crash %t yield 2>&1 | FileCheck %s --check-prefix=YIELD
// RUN: not --crash %t sleep 2>&1 | FileCheck %s --check-prefix=SLEEP
// RUN: not --crash %t after-sync 2>&1 | FileCheck %s --check-prefix=AFTERSYNC
// RUN: not --crash %t pool-yield 2>&1 | FileCheck %s --check-prefix=POOLYIELD
// RUN: not --crash %t gen-main 2>&1 | FileCheck %s --check-prefix=GENMAIN
// RUN: not --crash %t gen-nested 2>&1 | FileCheck %s --check-prefix=GENNESTED
// RUN: not --crash %t sync-around 2>&1 | FileCheck %s --check-prefix=AROUND
// RUN: %t spawn 2>&1 | FileCheck %s --check-prefix=SPAWN
//
// OK: outside coroutines: on system stack 1, plain call 1
// OK-NEXT: value 42, errno 7, tls 5, on system stack 1, nested 1
// OK-NEXT: printf from the system stack: 12345
// OK-NEXT: sorted 1..64: 1
// OK-NEXT: signal handled on the system stack: 1
// OK-NEXT: in a generator inside a coroutine: 1
// OK-NEXT: pool coroutine: 5 on the worker's stack
// OK-NEXT: PASS
// DIRECT: stack overflow in coroutine 'small'
// YIELD: cacs: a switch to another coroutine (cacs_yield, or a wait of cacs/coro.h or cacs/sync.h) inside CACS_ON_SYSTEM_STACK(yields, NULL) at {{.*}}sysstack.c:[[#]]: a call on the thread's system stack must not switch
// SLEEP: cacs: a switch to another coroutine {{.*}} inside CACS_ON_SYSTEM_STACK(sleeps, NULL) at {{.*}}sysstack.c:[[#]]: a call on the thread's system stack must not switch
// AFTERSYNC: cacs: {{.*}} inside CACS_ON_SYSTEM_STACK(sync_then_yield, NULL) at {{.*}}sysstack.c:[[#]]: a call
// POOLYIELD: cacs: cacs_pool_yield inside CACS_ON_SYSTEM_STACK(pool_yields, arg) at {{.*}}sysstack.c:[[#]]: a call on the thread's system stack must not switch
// GENMAIN: cacs: CACS_ON_SYSTEM_STACK(deep, NULL) at {{.*}}sysstack.c:[[#]]: the thread's system stack cannot be found
// GENNESTED: cacs: CACS_ON_SYSTEM_STACK(deep, NULL) at {{.*}}sysstack.c:[[#]]: called off the system stack inside CACS_ON_SYSTEM_STACK(nested_outer, NULL) at {{.*}}sysstack.c:[[#]], from a generator
// GENNESTED-NOT: outer's frame
// AROUND: block at line [[L:[0-9]+]]
// AROUND-NEXT: cacs: a switch to another coroutine {{.*}} inside the sync block at {{.*}}sysstack.c:[[L]]: no other coroutine may run
// SPAWN: in the call: started 0
// SPAWN-NEXT: after the call: started 1

#include "cacs/coro.h"
#include "cacs/generator.h"
#include "cacs/pool.h"
#include "cacs/syncblock.h"
#include "cacs/sysstack.h"

#include <errno.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SMALL (16 * 1024)
#define BIG (256 * 1024)

static __thread int tls_value;
static volatile int sink;

// A frame far larger than the coroutine's stack, touched from its top
// down, as a stack grows (so that an overflow first hits the guard).
__attribute__((noinline)) static int deep_work(int seed) {
  volatile char buf[BIG];
  for (size_t i = sizeof buf; i >= 512; i -= 512)
    buf[i - 512] = (char)(seed + i - 512);
  return buf[0] + buf[sizeof buf - 512] - (char)(seed + sizeof buf - 512);
}

static int cmp_calls;
static int cmp_big(const void *a, const void *b) {
  if (cmp_calls++ == 0)
    sink += deep_work(1);
  return *(const int *)a - *(const int *)b;
}

struct call {
  int in, out, nested;
};

static void nested(void *arg) { ((struct call *)arg)->nested = 1; }

static void compute(void *arg) {
  struct call *c = arg;
  c->out = c->in + deep_work(0) + 40;
  errno = 7;
  tls_value = 5;
  // Nested: already on the system stack, a plain call.
  if (cacs_on_system_stack_now())
    CACS_ON_SYSTEM_STACK(nested, c);
}

static int sorted[64];
static void sort_and_print(void *arg) {
  (void)arg;
  for (int i = 0; i < 64; ++i)
    sorted[i] = 64 - i;
  qsort(sorted, 64, sizeof(int), cmp_big);
  char line[64];
  snprintf(line, sizeof line, "printf from the system stack: %d\n", 12345);
  fputs(line, stdout);
}

static volatile sig_atomic_t handled_on_system;
static void on_usr1(int sig) {
  (void)sig;
  handled_on_system = cacs_on_system_stack_now() && deep_work(3) == 3;
}
static void raises(void *arg) {
  (void)arg;
  raise(SIGUSR1);
}

static int gen_on_system;
static void gen_check(void *arg) { *(int *)arg = cacs_on_system_stack_now(); }
static void gen_body(cacs_gen *g, void *arg) {
  (void)arg;
  CACS_ON_SYSTEM_STACK(gen_check, &gen_on_system);
  cacs_gen_yield(g, 1);
}

static void ok_coro(void *arg) {
  (void)arg;
  struct call c = {2, 0, 0};
  errno = 0;
  CACS_ON_SYSTEM_STACK(compute, &c);
  printf("value %d, errno %d, tls %d, on system stack %d, nested %d\n",
         c.out, errno, tls_value, !cacs_on_system_stack_now(), c.nested);
  CACS_ON_SYSTEM_STACK(sort_and_print, NULL);
  int ok = 1;
  for (int i = 0; i < 64; ++i)
    ok &= sorted[i] == i + 1;
  printf("sorted 1..64: %d\n", ok && cmp_calls > 0);
  signal(SIGUSR1, on_usr1);
  CACS_ON_SYSTEM_STACK(raises, NULL);
  printf("signal handled on the system stack: %d\n", (int)handled_on_system);
  cacs_gen *g = cacs_gen_create(gen_body, NULL, SMALL);
  cacs_gen_resume(g, 0);
  cacs_gen_destroy(g);
  printf("in a generator inside a coroutine: %d\n", gen_on_system);
}

static void pool_call(void *arg) {
  struct call *c = arg;
  c->out = c->in + deep_work(2) + 1;
  c->nested = cacs_on_system_stack_now();
}
static void pool_coro(void *arg) { CACS_ON_SYSTEM_STACK(pool_call, arg); }

static void direct(void *arg) {
  (void)arg;
  sink += deep_work(0);
}
static void yields(void *arg) {
  (void)arg;
  cacs_yield();
}
static void sleeps(void *arg) {
  (void)arg;
  cacs_sleep(1000);
}
static void sync_then_yield(void *arg) {
  (void)arg;
  CACS_SYNC { sink++; }
  cacs_yield();
}
static void pool_yields(void *arg) {
  (void)arg;
  cacs_pool_yield();
}
static void pool_bad(void *arg) { CACS_ON_SYSTEM_STACK(pool_yields, arg); }

static void deep(void *arg) {
  (void)arg;
  sink += deep_work(4);
}
static void gen_main_body(cacs_gen *g, void *arg) {
  (void)arg;
  CACS_ON_SYSTEM_STACK(deep, NULL);
  cacs_gen_yield(g, 1);
}

// A generator resumed inside a call on the system stack asks for it again
// (gen_main_body); the outer call's frame holds a pattern that the inner
// call's frames would overwrite (it prints how many bytes changed if it
// comes back).
static void nested_outer(void *arg) {
  (void)arg;
  volatile unsigned char mark[4096];
  for (int i = 0; i < 4096; ++i)
    mark[i] = 0x5a;
  cacs_gen *g = cacs_gen_create(gen_main_body, NULL, SMALL);
  cacs_gen_resume(g, 0);
  cacs_gen_destroy(g);
  int changed = 0;
  for (int i = 0; i < 4096; ++i)
    changed += mark[i] != 0x5a;
  printf("outer's frame: %d bytes changed\n", changed);
}
static void gen_nested_coro(void *arg) {
  (void)arg;
  CACS_ON_SYSTEM_STACK(nested_outer, NULL);
}

// Under ASan (sysstack-tools.c): a read past a local array on the system
// stack is reported as a stack-buffer-overflow of this frame.
__attribute__((noinline)) static void oob(void *arg) {
  volatile char local[16];
  local[0] = 1;
  sink += local[16 + *(volatile int *)arg];
}

static void noop(void *arg) { (void)arg; }

// The block's line, then a switch after a call on the system stack inside
// it: the abort names the block, which the call closed back to. Through a
// pointer the compiler's sync block check does not follow (its run-time
// check is under test).
static void (*volatile yield_fn)(void) = cacs_yield;
static void sync_around(void) {
  CACS_SYNC {
    printf("block at line %d\n", __LINE__ - 1);
    CACS_ON_SYSTEM_STACK(noop, NULL);
    yield_fn();
  }
}

static atomic_int started;
static cacs_pool *spawn_pool;
static cacs_pool_task *spawned;
static void marks(void *arg) {
  (void)arg;
  atomic_store(&started, 1);
}
static void spawns(void *arg) {
  (void)arg;
  spawned = cacs_pool_spawn(spawn_pool, marks, NULL);
  // The workers are idle: they would take it at once if queued.
  struct timespec ts = {0, 50 * 1000 * 1000};
  nanosleep(&ts, NULL);
  printf("in the call: started %d\n", atomic_load(&started));
}
static void spawn_coro(void *arg) {
  (void)arg;
  CACS_ON_SYSTEM_STACK(spawns, NULL);
  for (int i = 0; i < 200 && !atomic_load(&started); ++i) {
    struct timespec ts = {0, 10 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  printf("after the call: started %d\n", atomic_load(&started));
  if (!atomic_load(&started))
    _exit(1); // held for good: the pool would wait for it
  cacs_pool_join(spawned);
}

static const char *mode;
static void bad_coro(void *arg) {
  (void)arg;
  if (!strcmp(mode, "yield"))
    CACS_ON_SYSTEM_STACK(yields, NULL);
  else if (!strcmp(mode, "sleep"))
    CACS_ON_SYSTEM_STACK(sleeps, NULL);
  else if (!strcmp(mode, "after-sync"))
    CACS_ON_SYSTEM_STACK(sync_then_yield, NULL);
  else if (!strcmp(mode, "sync-around"))
    sync_around();
  else if (!strcmp(mode, "oob")) {
    int zero = 0;
    CACS_ON_SYSTEM_STACK(oob, &zero);
  }
}

static void run_pool(void (*entry)(void *), void *arg) {
  cacs_pool *p = cacs_pool_create(2);
  cacs_pool_join(cacs_pool_spawn(p, entry, arg));
  cacs_pool_destroy(p);
}

static void spawn_small(void (*entry)(void *), const char *name) {
  cacs_coro_attr a = {0};
  a.stack_size = SMALL;
  a.name = name;
  cacs_join(cacs_create_ex(entry, NULL, &a));
}

int main(int argc, char **argv) {
  mode = argc > 1 ? argv[1] : "ok";
  setvbuf(stdout, NULL, _IONBF, 0);
  if (!strcmp(mode, "ok")) {
    struct call c = {0, 0, 0};
    CACS_ON_SYSTEM_STACK(nested, &c);
    printf("outside coroutines: on system stack %d, plain call %d\n",
           cacs_on_system_stack_now(), c.nested);
    spawn_small(ok_coro, "small");
    struct call pc = {2, 0, 0};
    run_pool(pool_coro, &pc);
    printf("pool coroutine: %d %s\n", pc.out,
           pc.nested ? "on the worker's stack" : "NOT on a system stack");
    puts("PASS");
  } else if (!strcmp(mode, "direct")) {
    spawn_small(direct, "small");
  } else if (!strcmp(mode, "spawn")) {
    spawn_pool = cacs_pool_create(2);
    spawn_small(spawn_coro, "spawn");
    cacs_pool_destroy(spawn_pool);
    puts("PASS");
  } else if (!strcmp(mode, "pool-yield")) {
    run_pool(pool_bad, NULL);
  } else if (!strcmp(mode, "gen-nested")) {
    spawn_small(gen_nested_coro, "gen-nested");
  } else if (!strcmp(mode, "gen-main")) {
    cacs_gen *g = cacs_gen_create(gen_main_body, NULL, SMALL);
    cacs_gen_resume(g, 0);
  } else {
    spawn_small(bad_coro, "bad");
  }
  return 0;
}
