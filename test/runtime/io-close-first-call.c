// A descriptor that another thread closes inside a thread's first call of
// the I/O module, while the call makes the thread's own descriptors (the
// epoll loop's at its first wait, the io_uring engine's ring at the first
// call; both then the core's wake-up eventfd): the eventfd takes the closed
// number (this program's eventfd() runs a plain thread's cacs_close there
// first). The call, and the next on that number, fail with EBADF, as on
// any closed descriptor, not on the thread's eventfd: on epoll the read
// waited on it to its timeout (ETIMEDOUT) and the write sent to it as to
// the socket the read had seen (ENOTSOCK); on io_uring the read asked the
// ring to read it (EINVAL) and the write counted into it (8). A first call
// that is a cacs_wait_fd: EBADF, not its timeout. Each of the two first
// calls is a fresh thread's.
// (The pool's own descriptors: test/pool/pool-io-close.c "closeinread".)
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t | FileCheck %s
// RUN: env CACS_IO_POLL_MAX=0 %t | FileCheck %s
// RUN: %clang --target=aarch64-linux-gnu -O2 -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %tarm && %run_aarch64 %tarm | FileCheck %s
//
// CHECK: first call a read: -1 EBADF
// CHECK-NEXT: then a write: -1 EBADF
// CHECK-NEXT: the closed number is the thread's eventfd: yes
// CHECK-NEXT: first call a wait_fd: -1 EBADF
// CHECK-NEXT: the closed number is the thread's eventfd: yes
// CHECK-NEXT: descriptors: none leaked
// CHECK-NEXT: PASS

#include "Inputs/io-test.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/syscall.h>

static int victim = -1; // the descriptor the hook closes

static void *closer(void *arg) {
  (void)arg;
  EXPECT(cacs_close(victim) == 0);
  return NULL;
}

// The module's eventfd() (the core's wake-up eventfd, made by the thread's
// first wait or ring), armed: a plain thread closes `victim` first.
static atomic_int armed;
int eventfd(unsigned int count, int flags) {
  if (atomic_exchange(&armed, 0)) {
    pthread_t th;
    if (pthread_create(&th, NULL, closer, NULL) != 0)
      abort();
    pthread_join(th, NULL);
  }
  return (int)syscall(SYS_eventfd2, count, flags);
}

static const char *ename(int e) {
  return e == EBADF       ? "EBADF"
         : e == EINVAL    ? "EINVAL"
         : e == ENOTSOCK  ? "ENOTSOCK"
         : e == ETIMEDOUT ? "ETIMEDOUT"
                          : "other";
}

static void print_result(const char *what, long n, int e) {
  if (n < 0)
    printf("%s: %ld %s\n", what, n, ename(e));
  else
    printf("%s: %ld\n", what, n);
}

// Whether `fd` is an eventfd now (before the thread that made it exits).
static void print_taken(int fd) {
  char path[64], link[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  ssize_t k = readlink(path, link, sizeof link - 1);
  link[k > 0 ? k : 0] = 0;
  printf("the closed number is the thread's eventfd: %s\n",
         strcmp(link, "anon_inode:[eventfd]") ? "no" : "yes");
}

static void *first_read(void *arg) {
  (void)arg;
  char c;
  atomic_store(&armed, 1);
  ssize_t n = cacs_read(victim, &c, 1, 500000);
  print_result("first call a read", n, errno);
  uint64_t one = 1;
  n = cacs_write(victim, &one, sizeof one, 500000);
  print_result("then a write", n, errno);
  print_taken(victim);
  return NULL;
}

static void *first_wait_fd(void *arg) {
  (void)arg;
  atomic_store(&armed, 1);
  int r = cacs_wait_fd(victim, EPOLLIN, 500000);
  print_result("first call a wait_fd", r, errno);
  print_taken(victim);
  return NULL;
}

// `fd`'s number is the lowest free one: the eventfd takes it once closed.
static void run(void *(*fn)(void *)) {
  int sv[2];
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
  victim = sv[0];
  pthread_t th;
  EXPECT(pthread_create(&th, NULL, fn, NULL) == 0);
  pthread_join(th, NULL);
  EXPECT(atomic_load(&armed) == 0); // the hook ran
  close(sv[1]);
}

int main(void) {
  int fds = test_begin(10);
  run(first_read);
  run(first_wait_fd);
  return test_end(fds);
}
