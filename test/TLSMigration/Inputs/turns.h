// Threads A and B take turns: the one whose turn it is resumes the coroutine
// `co` (a cacs_switch context), which runs until its next switch; that thread
// then hands the turn to the other one (mutex and condition variable: every
// write before the hand-over happens before every read after it). So each
// switch the coroutine makes resumes it on the other thread, and after it
// the coroutine must see that thread's errno and __thread variables.
//
// The includer defines on_resume(), which records the resuming thread's
// values (its &errno is in host_errno already), and calls
// run_in_turns(body, n) with the number of switches body makes; body's last
// switch ends the run.
#include "cacs/switch.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

static cacs_context co;
static cacs_context *volatile host; // the context of the resuming thread
static int *volatile host_errno;    // its &errno, taken by itself

static void on_resume(void);

static pthread_mutex_t turns_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t turns_cond = PTHREAD_COND_INITIALIZER;
static int turn;      // 0: A, 1: B, 2: done
static int remaining; // switches left to serve

static void *turns_worker(void *arg) {
  int me = (int)(intptr_t)arg;
  cacs_context self;
  for (;;) {
    pthread_mutex_lock(&turns_lock);
    while (turn != me && turn != 2)
      pthread_cond_wait(&turns_cond, &turns_lock);
    pthread_mutex_unlock(&turns_lock);
    if (turn == 2)
      return NULL;
    // Fresh values on this thread, then resume the coroutine here.
    host = &self;
    host_errno = &errno;
    on_resume();
    cacs_switch(&self, &co, 0);
    pthread_mutex_lock(&turns_lock);
    turn = --remaining == 0 ? 2 : 1 - me;
    pthread_cond_broadcast(&turns_cond);
    pthread_mutex_unlock(&turns_lock);
  }
}

static int run_in_turns(cacs_context_fn body, int switches) {
  enum { StackSize = 1 << 16 };
  char *stack = malloc(StackSize);
  cacs_context_init(&co, stack + StackSize, body, NULL);
  remaining = switches;
  pthread_t a, b;
  pthread_create(&a, NULL, turns_worker, (void *)0);
  pthread_create(&b, NULL, turns_worker, (void *)1);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
