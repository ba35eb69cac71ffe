// Exact stacks for pool coroutines (cacs/pool.h, "Exact stacks"): in a
// program linked with -fcacs-stack-bounds, a pool coroutine whose entry has
// a proven bound runs on a stack of exactly that size (cacs_stack_exact's),
// with no guard, from its starting worker's slabs; one whose entry has none
// keeps a guarded stack, and so does every coroutine of a pool created with
// CACS_STACK_NOBOUND or of a process with CACS_STACK_BOUNDS=0. The bounded
// entry parses, waits for a pipe three calls deep and checks its frames'
// locals after the wait; in a CACS_POOL_MIGRATE_RUNNING pool the wait may
// end on another worker, and the coroutine then ends (and its stack is
// freed) on a worker other than the one whose slab holds the stack. Rounds
// repeat until such a migration is seen (at most 50). An entry that locks a
// pool mutex, spawns and waits on a semaphore is bounded too. x86-64, and
// AArch64 under qemu.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -fcacs-stack-bounds -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t/p
// RUN: env CACS_IO_ENGINE=epoll %t/p unstarted | FileCheck %s --check-prefixes=EXACT,UNSTARTED
// RUN: env CACS_IO_ENGINE=epoll %t/p running | FileCheck %s --check-prefixes=EXACT,RUNNING
// RUN: env CACS_IO_ENGINE=epoll %t/p nobound | FileCheck %s --check-prefix=GUARDED
// RUN: env CACS_IO_ENGINE=epoll CACS_STACK_BOUNDS=0 %t/p running | FileCheck %s --check-prefix=GUARDED
// RUN: %if qemu-aarch64 %{ \
// RUN:   %clang %aarch64_flags -O2 -fcacs-stack-bounds -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %t/a64 && \
// RUN:   env CACS_IO_ENGINE=epoll %run_aarch64 %t/a64 running | FileCheck %s --check-prefixes=EXACT,RUNNING && \
// RUN:   env CACS_IO_ENGINE=epoll %run_aarch64 %t/a64 nobound | FileCheck %s --check-prefix=GUARDED %}
//
// Breaking it: with pool_worker.c's start() on guarded stacks only, EXACT
// fails; ending on the exact stack (cacs__pool_task_main's frame instead of
// the worker's system stack) writes past the stack's top into its block; a
// stack given back to the slab of the worker it ends on (not its owner's)
// corrupts that worker's free lists; without the CACS_STACK_NOBOUND check,
// GUARDED fails; without the budgets on cacs/pool_sync.h and
// cacs_pool_spawn, locker is guarded. The block above an exact stack is
// its descriptor up to the name, 80 bytes, nothing more (pool_internal.h,
// pool_stack): with the list link and owner in front of it, 96.

// EXACT: serve: exact, no guard, query agrees, block 80
// EXACT-NEXT: fib: guarded
// EXACT-NEXT: locker: exact, no guard, query agrees, block 80
// EXACT-NEXT: ran 200: frames intact 200, replies right 200, joined 200
// UNSTARTED-NEXT: migrated: no
// RUNNING-NEXT: migrated: yes
// EXACT-NEXT: PASS
//
// GUARDED: serve: guarded
// GUARDED-NEXT: fib: guarded
// GUARDED-NEXT: locker: guarded
// GUARDED-NEXT: ran 200: frames intact 200, replies right 200, joined 200
// GUARDED: PASS

#include "cacs/coro.h"
#include "cacs/io.h"
#include "cacs/pool.h"
#include "cacs/pool_sync.h"
#include "cacs/stack.h"
#include "cacs/sysstack.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

// In libcacs (hidden, linked statically): the stack of the pool coroutine
// running on the calling thread.
const cacs_stack *cacs__pool_fault_stack(void);
#define STACK_EXACT (1u << 29) // stack_exact.h, CACS__STACK_EXACT

enum { N = 200, ROUNDS = 50 };

typedef struct job {
  int id;
  int fd; // a pipe's read end
  int broken;
  unsigned flags;     // its stack's, seen from the coroutine
  size_t size;        // its stack's usable bytes
  size_t block;       // its slot's bytes above the stack (an exact one's)
  int on_it;          // the entry's frame lies on that stack
  int w_start, w_end; // the workers it started and ended on
  char *frame;        // a local of the entry
  char reply;
} job;

#define FILL_LOCALS(buf, j)                                                    \
  for (unsigned i_ = 0; i_ < sizeof buf; ++i_)                                 \
  buf[i_] = (char)(i_ * 7 + (j)->id)
#define CHECK_LOCALS(buf, j)                                                   \
  for (unsigned i_ = 0; i_ < sizeof buf; ++i_)                                 \
    if (buf[i_] != (char)(i_ * 7 + (j)->id))                                   \
  (j)->broken = 1

// On the system stack (not in the bound): what the coroutine runs on.
static void look_start(void *p) {
  job *j = p;
  const cacs_stack *s = cacs__pool_fault_stack();
  j->flags = s->flags;
  j->size = (size_t)((char *)s->top - (char *)s->lo);
  j->block = s->map_size - j->size; // an exact slot: stack, then its block
  j->on_it = j->frame >= (char *)s->lo && j->frame < (char *)s->top;
  __atomic_store_n(&j->w_start, cacs_pool_worker_index(), __ATOMIC_RELEASE);
}
static void look_end(void *p) {
  job *j = p;
  j->w_end = cacs_pool_worker_index();
}

// Three calls deep to the wait, each frame with locals checked after it.
__attribute__((noinline)) static int wait_reply(job *j) {
  volatile char buf[64];
  FILL_LOCALS(buf, j);
  char c = 0;
  int r = (int)cacs_read(j->fd, &c, 1, -1);
  j->reply = c;
  CHECK_LOCALS(buf, j);
  return r;
}
__attribute__((noinline)) static int handle(job *j) {
  volatile char buf[200];
  FILL_LOCALS(buf, j);
  int r = wait_reply(j);
  CHECK_LOCALS(buf, j);
  return r;
}
__attribute__((noinline)) static int parse(job *j) {
  volatile char buf[120];
  FILL_LOCALS(buf, j);
  int r = handle(j);
  CHECK_LOCALS(buf, j);
  return r;
}
static void serve(void *p) {
  job *j = p;
  volatile char buf[40];
  FILL_LOCALS(buf, j);
  j->frame = (char *)buf;
  CACS_ON_SYSTEM_STACK(look_start, j);
  if (parse(j) != 1)
    j->broken = 1;
  CHECK_LOCALS(buf, j);
  CACS_ON_SYSTEM_STACK(look_end, j);
}

// No bound: recursion.
__attribute__((noinline)) static int fib_of(int n) {
  return n < 2 ? n : fib_of(n - 1) + fib_of(n - 2);
}
static void fib(void *p) {
  job *j = p;
  volatile char here = 0;
  j->frame = (char *)&here;
  look_start(j);
  j->reply = (char)fib_of(10);
}

// Bounded too: the calls of cacs/pool_sync.h and cacs_pool_spawn carry the
// wait budget. It locks, spawns a child that posts, waits for the post.
static cacs_pool *the_pool;
static cacs_pool_mutex mx = CACS_POOL_MUTEX_INIT;
static cacs_pool_sem posted = CACS_POOL_SEM_INIT(0);
static void post(void *p) {
  (void)p;
  cacs_pool_sem_post(&posted);
}
static void locker(void *p) {
  job *j = p;
  volatile char here = 0;
  j->frame = (char *)&here;
  CACS_ON_SYSTEM_STACK(look_start, j);
  cacs_pool_mutex_lock(&mx, CACS_POOL_FOREVER);
  cacs_pool_task *c = cacs_pool_spawn(the_pool, post, NULL);
  if (!c || cacs_pool_sem_wait(&posted, CACS_POOL_FOREVER) != 0 ||
      cacs_pool_join(c) != 0)
    j->broken = 1;
  cacs_pool_mutex_unlock(&mx);
  j->reply = (char)here;
}

// cacs_stack_exact answers for the defaults (a coroutine's stack, whose
// 32-byte start frame a pool coroutine's lacks: coro_layout.h); a pool
// with CACS_STACK_NOBOUND opts out.
#define START_FRAME 32 // coro_layout.h, CACS_BOUNDED_FRAME
static int pool_nobound;

static void kind(const char *name, void (*entry)(void *), const job *j) {
  size_t bytes = 0;
  int query = cacs_stack_exact(entry, &bytes);
  if (!j->on_it)
    printf("%s: did not run on its stack\n", name);
  else if (j->flags & STACK_EXACT)
    printf("%s: exact, %s, %s, block %zu\n", name,
           j->flags & CACS_STACK_NOGUARD ? "no guard" : "GUARDED",
           query && bytes - START_FRAME == j->size ? "query agrees"
                                                   : "QUERY DISAGREES",
           j->block);
  else
    printf("%s: guarded%s\n", name,
           query && !pool_nobound ? ", QUERY SAYS EXACT" : "");
}

static job jobs[N];
static int pipes[N][2];

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "running";
  cacs_pool_attr a = {2, 0,
                      strcmp(mode, "running") ? CACS_POOL_MIGRATE_UNSTARTED
                                              : CACS_POOL_MIGRATE_RUNNING,
                      strcmp(mode, "nobound") ? 0u : CACS_STACK_NOBOUND};
  pool_nobound = !strcmp(mode, "nobound");
  cacs_pool *pool = cacs_pool_create_ex(&a);
  if (!pool)
    return 1;
  for (int i = 0; i < N; ++i)
    if (pipe(pipes[i]) != 0)
      return 1;

  job f = {.id = -1};
  if (cacs_pool_join(cacs_pool_spawn(pool, fib, &f)) != 0 || f.reply != 55)
    return 1;
  the_pool = pool;
  job l = {.id = -2};
  if (cacs_pool_join(cacs_pool_spawn(pool, locker, &l)) != 0 || l.broken)
    return 1;

  int migrated = 0, intact = 0, right = 0, joined = 0, round;
  for (round = 0; round < ROUNDS && !(round && migrated); ++round) {
    cacs_pool_task *t[N];
    for (int i = 0; i < N; ++i) {
      jobs[i] = (job){.id = i, .fd = pipes[i][0], .w_start = -1, .w_end = -2};
      t[i] = cacs_pool_spawn(pool, serve, &jobs[i]);
    }
    // All started and waiting, so that they are all alive at once.
    for (int i = 0; i < N; ++i)
      while (__atomic_load_n(&jobs[i].w_start, __ATOMIC_ACQUIRE) < 0)
        usleep(100);
    usleep(2000);
    for (int i = 0; i < N; ++i) {
      char c = (char)('a' + i % 26);
      if (write(pipes[i][1], &c, 1) != 1)
        return 1;
    }
    intact = right = joined = 0;
    for (int i = 0; i < N; ++i) {
      joined += cacs_pool_join(t[i]) == 0;
      intact += !jobs[i].broken;
      right += jobs[i].reply == (char)('a' + i % 26);
      migrated += jobs[i].w_start != jobs[i].w_end;
    }
    if (strcmp(mode, "running")) // nothing to wait for
      break;
  }
  kind("serve", serve, &jobs[0]);
  int same = 1;
  // Guarded stacks start at a random offset below their top: their sizes
  // differ; exact ones are the entry's, all alike.
  for (int i = 1; i < N; ++i)
    same &= jobs[i].flags == jobs[0].flags && jobs[i].on_it &&
            (!(jobs[0].flags & STACK_EXACT) || jobs[i].size == jobs[0].size);
  if (!same)
    printf("serve: NOT ALL ALIKE\n");
  kind("fib", fib, &f);
  kind("locker", locker, &l);
  printf("ran %d: frames intact %d, replies right %d, joined %d\n", N, intact,
         right, joined);
  if (strcmp(mode, "nobound"))
    printf("migrated: %s\n", migrated ? "yes" : "no");
  fprintf(stderr, "rounds %d, migrated %d\n", round, migrated);
  int ok = cacs_pool_destroy(pool) == 0 && same && intact == N && right == N &&
           joined == N;
  puts(ok ? "PASS" : "FAIL");
  return !ok;
}
