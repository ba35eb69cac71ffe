// AddressSanitizer keeps one stack per thread; the pool announces every
// switch between a worker's loop and a coroutine, so ASan knows which stack
// runs. Here a longjmp in one pool coroutine (A) makes ASan unpoison the
// stack it leaves (__asan_handle_no_return: from the stack pointer to the
// top of the stack ASan believes runs): A's own abandoned frames must be
// cleared, and the redzones around the live arrays of six other parked
// coroutines (B, spawned before and after A) must stay poisoned, or their
// overflows would go unreported. Without the annotations ASan takes the
// worker thread's stack for A's: either the span up to the worker's stack
// top covers the B stacks above A's (seen: b_intact=3/6 in every run, LLVM
// 19 and 22), or it is out of bounds and ASan clears nothing (a_cleared=no,
// and "WARNING: ASan is ignoring requested __asan_handle_no_return"). The
// first run has real stack frames only; the second has each coroutine's
// fake stack (use-after-return detection) travel with it between workers
// and freed when it finishes, and no leak or error reported.
// x86-64 only: the ASan tests do not run ASan programs under qemu-aarch64.
//
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: env ASAN_OPTIONS=detect_stack_use_after_return=0 %t 2>&1 | FileCheck %s
// RUN: env ASAN_OPTIONS=detect_stack_use_after_return=1:detect_leaks=1 %t uar 2>&1 | FileCheck %s --check-prefix=UAR
// CHECK-NOT: WARNING
// CHECK: a_cleared=yes b_intact=6/6
// CHECK-NOT: WARNING
// UAR-NOT: ERROR
// UAR: b_intact=6/6
// UAR-NOT: ERROR

#include "cacs/pool.h"

#include <sanitizer/asan_interface.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

enum { NB = 6 };

static _Atomic int parked, go, b_intact;
static char *volatile a_redzone;

__attribute__((noinline)) static void deep(jmp_buf *jb, int n) {
  char buf[64];
  memset(buf, n, sizeof buf);
  a_redzone = buf + sizeof buf; // the right redzone of this frame's array
  if (n == 0)
    longjmp(*jb, 1);
  deep(jb, n - 1);
  __asm__ volatile("" : : "r"(buf) : "memory"); // no tail call
}

static void a_co(void *arg) {
  int *a_cleared = arg;
  while (atomic_load(&parked) < NB)
    cacs_pool_yield();
  jmp_buf jb;
  if (!setjmp(jb))
    deep(&jb, 3);
  *a_cleared = !__asan_address_is_poisoned(a_redzone);
  atomic_store(&go, 1);
}

static void b_co(void *arg) {
  (void)arg;
  char buf[64];
  memset(buf, 1, sizeof buf);
  __asm__ volatile("" : : "r"(buf) : "memory");
  atomic_fetch_add(&parked, 1);
  while (!atomic_load(&go))
    cacs_pool_yield(); // may move to the other worker
  // On the real stack its redzone must still be poisoned; on a fake stack
  // (use-after-return detection) too, that one being this coroutine's.
  if (__asan_address_is_poisoned(buf + sizeof buf))
    atomic_fetch_add(&b_intact, 1);
}

int main(int argc, char **argv) {
  // Its running coroutines must move: it opts in.
  cacs_pool_attr attr = {2, 0, CACS_POOL_MIGRATE_RUNNING};
  cacs_pool *p = cacs_pool_create_ex(&attr);
  cacs_pool_task *t[NB + 1];
  int a_cleared = 0;
  // A in the middle, so that B stacks are likely to lie on both sides.
  for (int i = 0; i <= NB; ++i)
    t[i] = i == NB / 2 ? cacs_pool_spawn(p, a_co, &a_cleared)
                       : cacs_pool_spawn(p, b_co, NULL);
  for (int i = 0; i <= NB; ++i)
    cacs_pool_join(t[i]);
  cacs_pool_destroy(p);
  if (argc > 1 && !strcmp(argv[1], "uar"))
    printf("b_intact=%d/%d\n", atomic_load(&b_intact), NB);
  else
    printf("a_cleared=%s b_intact=%d/%d\n", a_cleared ? "yes" : "no",
           atomic_load(&b_intact), NB);
  return 0;
}
