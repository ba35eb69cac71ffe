// A thread whose calls of cacs/io.h never wait (a write with room, a read
// of a byte already there) records its descriptors but never makes a loop;
// its records are freed when it exits all the same. They leaked before
// (LeakSanitizer: the records' table from fd_table_grow), as they did when
// a thread's first wait could not make the loop (scripts/faults, epoll_create1).
//
// RUN: %clang -O1 -fsanitize=address -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t
// RUN: env ASAN_OPTIONS=detect_leaks=1 %t 2>&1 | FileCheck %s
//
// CHECK: no wait: write 1, read 1
// CHECK-NEXT: descriptors: none leaked
// CHECK-NEXT: PASS
// CHECK-NOT: LeakSanitizer

#include "Inputs/io-test.h"

#include <pthread.h>

static int sv[2];

static void *no_wait(void *arg) {
  (void)arg;
  char c = 'x';
  ssize_t w = cacs_write(sv[0], &c, 1, 1000000);
  ssize_t r = cacs_read(sv[1], &c, 1, 1000000);
  printf("no wait: write %zd, read %zd\n", w, r);
  return NULL;
}

int main(void) {
  int fds = test_begin(30);
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
  pthread_t t;
  EXPECT(pthread_create(&t, NULL, no_wait, NULL) == 0);
  pthread_join(t, NULL);
  cacs_close(sv[0]);
  cacs_close(sv[1]);
  return test_end(fds);
}
