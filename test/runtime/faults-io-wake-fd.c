// A wake from another thread while the thread waits in its I/O loop, when
// the loop could not add the core's wake-up eventfd to its epoll set
// (issue 36, part 2; found by scripts/faults): the core then comes back
// every millisecond to look for the wake instead of sleeping in the loop
// past it (it slept until the read's timeout, forever here: a hang). The
// failing call is this program's own epoll_ctl, in front of libc's: its
// first EPOLL_CTL_ADD, the loop's first (epoll mode from the start).
// (Arch-neutral C: x86-64 only.) The epoll engine only, also when lit runs
// every I/O test per engine (--param cacs_io_all_engines=1): io_uring's
// loop makes no epoll_ctl for the fault to hit.
//
// RUN: %clang -O1 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t
// RUN: env CACS_IO_ENGINE=epoll CACS_IO_POLL_MAX=0 timeout 20 %t | FileCheck %s --check-prefix=OK
// RUN: env CACS_IO_ENGINE=epoll CACS_IO_POLL_MAX=0 FAIL_FIRST_ADD=1 timeout 20 %t | FileCheck %s --check-prefix=FAULT
//
// OK: wake-up eventfd watched: yes
// OK-NEXT: woken across threads: PASS
// FAULT: wake-up eventfd watched: no
// FAULT-NEXT: woken across threads: PASS

#define _GNU_SOURCE 1
#include "cacs/coro.h"
#include "cacs/io.h"
#include "cacs/sync.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

static int adds, failed;

// libcacs_io's epoll_ctl resolves to this one (the program's own).
int epoll_ctl(int ep, int op, int fd, struct epoll_event *ev) {
  static int (*real)(int, int, int, struct epoll_event *);
  if (!real)
    real = (int (*)(int, int, int, struct epoll_event *))dlsym(RTLD_NEXT,
                                                              "epoll_ctl");
  if (op == EPOLL_CTL_ADD && ++adds == 1 && getenv("FAIL_FIRST_ADD")) {
    failed = 1;
    errno = ENOMEM;
    return -1;
  }
  return real(ep, op, fd, ev);
}

static cacs_xsem xs;
static int p[2];

static void waiter(void *arg) {
  cacs_xsem_wait(&xs, CACS_FOREVER);
  if (write(p[1], "x", 1) != 1)
    abort();
}

static void *poster(void *arg) {
  usleep(20 * 1000);
  cacs_xsem_post(&xs);
  return NULL;
}

int main(void) {
  pthread_t t;
  if (cacs_xsem_init(&xs, 0) != 0 || pipe(p) != 0)
    return 1;
  cacs_coro *w = cacs_create(waiter, NULL, 0);
  pthread_create(&t, NULL, poster, NULL);
  char c;
  // Blocks in the loop (no timeout) while `waiter` waits for the post.
  ssize_t n = cacs_read(p[0], &c, 1, CACS_FOREVER);
  printf("wake-up eventfd watched: %s\n", failed ? "no" : "yes");
  printf("woken across threads: %s\n",
         n == 1 && cacs_join(w) == 0 ? "PASS" : "FAIL");
  pthread_join(t, NULL);
  return 0;
}
