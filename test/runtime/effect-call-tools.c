// The sanitizers' view of a call handler's code after a switch back into
// it. A call runs on its performer's stack while its handler's coroutine
// is the chain's innermost, so a request the call makes and gets answered
// resumes that coroutine's code on the performer's stack: the annotations
// of that switch must name the performer's stack to ASan and leave the
// performer's fiber current for TSan, not the handler coroutine's own
// (effect.c: `phys` and runs_on in the resume, and the perform's switch
// back to the fiber that was current at it).
//
// h handles `note` by requests (main answers); h resumes k with `ask` as a
// call; k performs ask: the call, on k's stack, performs note (to main,
// which resumes h: the switch lands on k's stack), then checks.
//
// ASan: it keeps what it was told as the thread's stack, and LeakSanitizer
// scans that range for pointers: a block held only by a local of the call
// is found after the switch only if the range is the performer's stack.
// The leak check runs right after the answer (leak check: 0); with the
// handler's stack named it reports the block (4242 bytes). The block is
// allocated before the switch: LeakSanitizer takes a block allocated where
// ASan cannot unwind (a stack other than the one it was told) for a
// coroutine's and never reports it. Libcacs's own allocations of the
// resume (the copy of the calls, kept in k's block beside its stack, where
// LeakSanitizer does not look) are made with leak checking disabled.
//
// TSan: a race inside the call, after the answer, with a write of another
// thread (a relaxed flag, as coro-tsan.c's race) is reported with the
// call's frames down to the performer's body (k_body); with the handler's
// fiber current, with that fiber's frames instead.
//
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %s \
// RUN:   $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) \
// RUN:   -lpthread -o %t.asan
// RUN: env ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=0 \
// RUN:   %t.asan 2>&1 | FileCheck %s --check-prefix=ASAN \
// RUN:   --implicit-check-not=LeakSanitizer
// RUN: %clang -O1 -g -fsanitize=thread -I%cacs_include %s \
// RUN:   $(%cacs_rt_objs %clang -O1 -g -fsanitize=thread -I%cacs_include) \
// RUN:   -lpthread -o %t.tsan
// RUN: env TSAN_OPTIONS=exitcode=0 %t.tsan 2>&1 | FileCheck %s \
// RUN:   --check-prefix=TSAN
//
// ASAN: note 7
// ASAN-NEXT: leak check: 0
// ASAN-NEXT: PASS
//
// TSAN: WARNING: ThreadSanitizer: data race
// TSAN: Write of size 8 at {{.*}} by {{main thread|thread T[0-9]+}}:
// TSAN-NEXT: #0 write_in_call {{.*}}effect-call-tools.c
// TSAN-NEXT: #1 note_then_check {{.*}}effect-call-tools.c
// TSAN-NEXT: #2 ask_fn {{.*}}effect-call-tools.c
// TSAN-NOT: h_body
// TSAN: k_body {{.*}}effect-call-tools.c
// TSAN: Previous write of size 8
// TSAN: SUMMARY: ThreadSanitizer: data race
// TSAN: note 7
// TSAN-NEXT: PASS

#include "cacs/effect.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN 1
#endif
#endif
#ifdef ASAN
#include <sanitizer/lsan_interface.h>
#endif

CACS_EFFECT(ask, int, int);
CACS_EFFECT(note, int, int);

static long shared;
static int posted; // relaxed: no synchronization for TSan

static void *other_thread(void *arg) {
  (void)arg;
  shared = 1;
  __atomic_store_n(&posted, 1, __ATOMIC_RELAXED);
  return NULL;
}

__attribute__((noinline)) static void write_in_call(void) { shared = 2; }

// Runs in the call, on k's stack; the block's only pointer is here.
__attribute__((noinline)) static int note_then_check(int x) {
  void *volatile block = malloc(4242);
  int answer = CACS_PERFORM(note, x); // switches out and back
#ifdef ASAN
  printf("leak check: %d\n", __lsan_do_recoverable_leak_check());
#endif
  write_in_call();
  free(block);
  return answer;
}

static const void *ask_fn(void *payload, void *env) {
  int *slot = env;
  *slot = note_then_check(*(int *)payload);
  return slot;
}

static void *k_body(void *arg) {
  (void)arg;
#ifdef ASAN
  __lsan_enable(); // h's resume disabled it (see above)
#endif
  return (void *)(long)CACS_PERFORM(ask, 7);
}

static void *h_body(void *arg) {
  (void)arg;
  int slot;
  cacs_effect_coro *k = cacs_effect_create(k_body, NULL, 0);
#ifdef ASAN
  __lsan_disable();
#endif
  cacs_effect_request q = cacs_effect_resume_with(
      k, NULL, CACS_CALLS(CACS_CALL(ask, ask_fn, &slot)), NULL);
  cacs_effect_destroy(k);
  return q.payload;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, other_thread, NULL);
  while (!__atomic_load_n(&posted, __ATOMIC_RELAXED))
    ;
  cacs_effect_coro *h = cacs_effect_create(h_body, NULL, 0);
  cacs_effect_request q = cacs_effect_resume(h, CACS_HANDLES(note), NULL);
  while (q.effect) {
    int x = *(int *)q.payload, r = 100 * x;
    printf("note %d\n", x);
    q = cacs_effect_resume(h, CACS_HANDLES(note), &r);
  }
  cacs_effect_destroy(h);
  pthread_join(t, NULL);
  if ((long)q.payload != 700 || shared != 2)
    return 1;
  printf("PASS\n");
  return 0;
}
