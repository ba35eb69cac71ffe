// Misuse of the runtime is a clear error, never silent undefined behaviour
// (issue 21, item 7): a handle that may be freed, or another thread's, and
// a running generator abort with a message naming the misuse; misuse the
// runtime can check on a live object fails with -1 and errno.
// (misuse-aarch64.c: the same on AArch64.)
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: not --crash %t join-twice 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not --crash %t join-other-thread 2>&1 | FileCheck %s --check-prefix=THREAD
// RUN: not --crash %t detach-freed 2>&1 | FileCheck %s --check-prefix=DETACH
// RUN: not --crash %t gen-resume-self 2>&1 | FileCheck %s --check-prefix=GEN-RESUME
// RUN: not --crash %t gen-destroy-self 2>&1 | FileCheck %s --check-prefix=GEN-DESTROY
// RUN: %t checked 2>&1 | FileCheck %s --check-prefix=CHECKED
//
// TWICE: joined once: 0
// TWICE-NEXT: cacs: cacs_join(0x{{[0-9a-f]+}}): not a coroutine of this thread that can still be joined or detached: it was joined already, or detached and has finished, or another thread created it (a coroutine is joined by a coroutine of the thread that created it; to join across threads, run it in the pool and use cacs_pool_join)
// THREAD: cacs: cacs_join(0x{{[0-9a-f]+}}): not a coroutine of this thread {{.*}}to join across threads, run it in the pool and use cacs_pool_join)
// DETACH: cacs: cacs_detach(0x{{[0-9a-f]+}}): not a coroutine of this thread that can still be joined or detached
// GEN-RESUME: cacs: cacs_gen_resume('generator#1'): the generator is running: a generator cannot resume or destroy itself, nor one of the generators that resumed it
// GEN-DESTROY: cacs: cacs_gen_destroy('generator#1'): the generator is running: a generator cannot resume or destroy itself, nor one of the generators that resumed it
// CHECKED: join self: -1 EDEADLK
// CHECKED-NEXT: join main: -1 EINVAL
// CHECKED-NEXT: join NULL: -1 EINVAL
// CHECKED-NEXT: join detached: -1 EINVAL
// CHECKED-NEXT: second joiner: -1 EINVAL
// CHECKED-NEXT: detach twice: -1 EINVAL
// CHECKED-NEXT: create with stack size SIZE_MAX: NULL ENOMEM
// CHECKED-NEXT: generator with stack size SIZE_MAX: NULL ENOMEM
// CHECKED-NEXT: stack with size SIZE_MAX: NULL ENOMEM
// CHECKED-NEXT: PASS

#include "Inputs/check.h"
#include "cacs/coro.h"
#include "cacs/generator.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <string.h>

static const char *ename(int e) {
  return e == EDEADLK  ? "EDEADLK"
         : e == EINVAL ? "EINVAL"
         : e == ENOMEM ? "ENOMEM"
                       : "other";
}

static void nothing(void *arg) { (void)arg; }

// A thread that creates a coroutine, hands it over and stays alive.
static cacs_coro *other_threads;
static sem_t created;
static void *make_one(void *arg) {
  (void)arg;
  other_threads = cacs_create(nothing, NULL, 0);
  sem_post(&created);
  for (;;)
    pause();
  return NULL;
}

static void resume_self(cacs_gen *g, void *arg) {
  (void)arg;
  cacs_gen_resume(g, 0); // hung forever before
}

static void destroy_self(cacs_gen *g, void *arg) {
  (void)arg;
  cacs_gen_destroy(g); // "survived" on a freed stack before
  cacs_gen_yield(g, 1);
}

static void report(const char *what, int r) {
  int e = errno;
  printf("%s: %d %s\n", what, r, ename(e));
  EXPECT(r == -1);
}

static cacs_coro *main_coro;
static void join_main(void *arg) {
  (void)arg;
  report("join main", cacs_join(main_coro));
}

static void yield_a_few(void *arg) {
  (void)arg;
  for (int i = 0; i < 3; i++)
    cacs_yield();
}

static cacs_coro *target;
static void second_joiner(void *arg) {
  (void)arg;
  report("second joiner", cacs_join(target)); // main joins it already
}

static void checked(void) {
  report("join self", cacs_join(cacs_self()));
  main_coro = cacs_self();
  EXPECT(cacs_join(cacs_create(join_main, NULL, 0)) == 0);
  report("join NULL", cacs_join(NULL));
  cacs_coro *d = cacs_create(nothing, NULL, 0);
  EXPECT(cacs_detach(d) == 0);
  report("join detached", cacs_join(d));
  target = cacs_create(yield_a_few, NULL, 0);
  cacs_coro *j2 = cacs_create(second_joiner, NULL, 0);
  EXPECT(cacs_join(target) == 0);
  EXPECT(cacs_join(j2) == 0);
  d = cacs_create(nothing, NULL, 0);
  EXPECT(cacs_detach(d) == 0);
  report("detach twice", cacs_detach(d));
  cacs_yield(); // the detached ones finish

  errno = 0;
  cacs_coro *big = cacs_create(nothing, NULL, SIZE_MAX); // 4 KiB before
  printf("create with stack size SIZE_MAX: %s %s\n",
         big ? "a coroutine" : "NULL", ename(errno));
  EXPECT(!big && errno == ENOMEM);
  errno = 0;
  cacs_gen *g = cacs_gen_create(resume_self, NULL, SIZE_MAX);
  printf("generator with stack size SIZE_MAX: %s %s\n",
         g ? "a generator" : "NULL", ename(errno));
  EXPECT(!g && errno == ENOMEM);
  errno = 0;
  void *s = cacs_stack_alloc(SIZE_MAX, sizeof(cacs_stack), 0);
  printf("stack with size SIZE_MAX: %s %s\n", s ? "a stack" : "NULL",
         ename(errno));
  EXPECT(!s && errno == ENOMEM);
  EXPECT(cacs_count() == 0);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (!strcmp(mode, "join-twice")) {
    cacs_coro *c = cacs_create(nothing, NULL, 0);
    printf("joined once: %d\n", cacs_join(c));
    fflush(stdout);
    cacs_join(c); // returned 0 on freed memory before
    printf("joined twice\n");
    return 1;
  }
  if (!strcmp(mode, "join-other-thread")) {
    pthread_t t;
    sem_init(&created, 0, 0);
    pthread_create(&t, NULL, make_one, NULL);
    sem_wait(&created);
    cacs_join(other_threads); // a misleading "deadlock" abort before
    return 1;
  }
  if (!strcmp(mode, "detach-freed")) {
    cacs_coro *c = cacs_create(nothing, NULL, 0);
    cacs_join(c);
    cacs_detach(c);
    return 1;
  }
  if (!strcmp(mode, "gen-resume-self")) {
    cacs_gen *g = cacs_gen_create(resume_self, NULL, 0);
    cacs_gen_resume(g, 0);
    return 1;
  }
  if (!strcmp(mode, "gen-destroy-self")) {
    cacs_gen *g = cacs_gen_create(destroy_self, NULL, 0);
    cacs_gen_resume(g, 0);
    printf("survived\n");
    return 1;
  }
  checked();
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
