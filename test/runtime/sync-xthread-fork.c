// fork() after a thread used cross-thread waits: the child gets its own
// wake-up eventfd. The parent's coroutine waits on a cacs_xsem that another
// parent thread posts while the parent is busy (so the parent's eventfd
// stays readable for a while); meanwhile the child waits for a post of its
// own. Sharing the parent's eventfd, the child would spin in ppoll on it
// the whole time (seen: tens of ms of CPU); with its own it sleeps.
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t && %t | FileCheck %s
//
// CHECK: child: woken by its own post, slept meanwhile
// CHECK-NEXT: parent: woken
// CHECK-NEXT: PASS

#include "Inputs/sync-test.h"
#include "cacs/sync.h"

#include <errno.h>
#include <pthread.h>
#include <sys/wait.h>

static cacs_xsem xs;

static void *post_after(void *arg) {
  usleep((useconds_t)(long)arg);
  cacs_xsem_post(&xs);
  return NULL;
}

static long long cpu_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static int parent_result = -1;
static void parent_waiter(void *arg) {
  (void)arg;
  parent_result = err_of(cacs_xsem_wait(&xs, 5 * 1000 * 1000));
}

int main(void) {
  test_start(30);
  pthread_t t;
  cacs_xsem_init(&xs, 0);
  // The parent thread's inbox and eventfd exist from here on.
  pthread_create(&t, NULL, post_after, (void *)1000L);
  EXPECT(cacs_xsem_wait(&xs, 5 * 1000 * 1000) == 0);
  pthread_join(t, NULL);

  pid_t pid = fork();
  if (pid == 0) {
    pthread_create(&t, NULL, post_after, (void *)150000L);
    long long c0 = cpu_us();
    int r = err_of(cacs_xsem_wait(&xs, 5 * 1000 * 1000));
    long long spent = cpu_us() - c0;
    pthread_join(t, NULL);
    int ok = r == 0 && spent < 10000;
    printf("child: woken by its own post, %s meanwhile\n",
           spent < 10000 ? "slept" : "spun");
    if (!ok)
      printf("FAIL: child wait %d, %lld us of CPU\n", r, spent);
    fflush(stdout);
    _exit(!ok);
  }
  cacs_coro *w = cacs_create(parent_waiter, NULL, 0);
  cacs_yield(); // it waits
  pthread_create(&t, NULL, post_after, (void *)5000L);
  spin_us(200000); // busy: the posted eventfd stays readable
  cacs_join(w);
  pthread_join(t, NULL);
  int status = 0;
  EXPECT(waitpid(pid, &status, 0) == pid);
  EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT(parent_result == 0);
  printf("parent: woken\n");
  cacs_xsem_destroy(&xs);
  return test_end();
}
