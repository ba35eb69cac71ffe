// The io_uring engine's fallback (cacs/io.h, "Engines"): when the kernel
// refuses io_uring (here a seccomp filter makes io_uring_setup fail with
// ENOSYS, as on a kernel without it, or EPERM, as sysctl
// kernel.io_uring_disabled=2 or a container's profile do), a thread gets
// the epoll loop, whether io_uring was asked for by CACS_IO_ENGINE, by
// cacs_io_set_engine or left to the module, and its calls work there: an
// echo over TCP, a read that times out, and another thread. Without the
// filter the same program gets io_uring (the NOFILTER lines), so the test
// fails if the filter is not what makes it choose epoll; a fallback that
// does not happen (or a call that fails instead) fails the CHECK lines.
//
// After fork() (argv[1] fork): the parent runs io_uring and has a reader
// parked; the child refuses io_uring to itself, so it cannot make a ring
// of its own. Its copy of the reader, queued again, and its later calls
// then run on the epoll loop instead of failing with EPERM (the FORK
// lines); the parent stays on io_uring.
//
// REQUIRES: io-uring
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t
// RUN: env CACS_IO_ENGINE=uring %t enosys env | FileCheck %s
// RUN: env CACS_IO_ENGINE=uring %t eperm env | FileCheck %s
// RUN: env -u CACS_IO_ENGINE %t eperm auto | FileCheck %s
// RUN: env -u CACS_IO_ENGINE %t enosys call | FileCheck %s
// RUN: env CACS_IO_ENGINE=uring not %t none env | FileCheck %s --check-prefix=NOFILTER
// RUN: env -u CACS_IO_ENGINE not %t none call | FileCheck %s --check-prefix=NOFILTER
// RUN: env CACS_IO_ENGINE=uring %t fork env | FileCheck %s --check-prefix=FORK
//
// CHECK: io_uring_setup refused: yes
// CHECK-NEXT: engine: epoll
// CHECK-NEXT: echo: ok
// CHECK-NEXT: timeout: ETIMEDOUT ok
// CHECK-NEXT: another thread: epoll ok
// CHECK-NEXT: descriptors: none leaked
// CHECK-NEXT: PASS
// NOFILTER: io_uring_setup refused: no
// NOFILTER-NEXT: engine: uring
// FORK: parent engine: uring
// FORK-NEXT: child: io_uring_setup refused: yes
// FORK-NEXT: child: reader parked before the fork got its byte ok
// FORK-NEXT: child engine: epoll
// FORK-NEXT: echo: ok
// FORK-NEXT: timeout: ETIMEDOUT ok
// FORK-NEXT: child: PASS
// FORK-NEXT: parent engine after: uring
// FORK-NEXT: descriptors: none leaked
// FORK-NEXT: PASS

#define _GNU_SOURCE 1
#define IO_TEST_OWN_ENGINE 1 // it asks for its engine itself
#include "Inputs/io-test.h"

#include "Inputs/refuse-io-uring.h"

#include <pthread.h>
#include <sys/wait.h>

static int conn[2];

static void echo_server(void *arg) {
  (void)arg;
  char buf[64];
  ssize_t r;
  while ((r = cacs_read(conn[1], buf, sizeof buf, 2000000)) > 0)
    if (cacs_write_all(conn[1], buf, (size_t)r, 2000000) != r)
      break;
}

static void test_echo(void) {
  int before = failures;
  tcp_pair_loopback(conn);
  cacs_coro *s = cacs_create(echo_server, NULL, 0);
  for (int i = 0; i < 50; i++) {
    char msg[32], back[32];
    memset(msg, 'a' + i % 26, sizeof msg);
    EXPECT(cacs_write_all(conn[0], msg, sizeof msg, 2000000) == sizeof msg);
    size_t got = 0;
    while (got < sizeof back) {
      ssize_t r = cacs_read(conn[0], back + got, sizeof back - got, 2000000);
      if (r <= 0)
        break;
      got += (size_t)r;
    }
    EXPECT(got == sizeof msg && memcmp(msg, back, sizeof msg) == 0);
  }
  cacs_close(conn[0]);
  cacs_join(s);
  cacs_close(conn[1]);
  printf("echo: %s\n", failures == before ? "ok" : "FAILED");
}

static int read_errno;

static void read_once(void *arg) {
  char c;
  read_errno =
      cacs_read(conn[1], &c, 1, (int64_t)(intptr_t)arg) < 0 ? errno : 0;
}

static void test_timeout(void) {
  int before = failures;
  tcp_pair_loopback(conn);
  cacs_join(cacs_create(read_once, (void *)(intptr_t)20000, 0));
  EXPECT(read_errno == ETIMEDOUT);
  cacs_close(conn[0]);
  cacs_close(conn[1]);
  printf("timeout: ETIMEDOUT %s\n", failures == before ? "ok" : "FAILED");
}

static int thread_engine;

// A thread's first call (io-test.h's, which aborts if it fails) and the
// engine it got.
static void *other_thread(void *arg) {
  (void)arg;
  io_warm_up();
  thread_engine = cacs_io_engine();
  return NULL;
}

static int early[2], early_ok;

static void early_reader(void *arg) {
  (void)arg;
  char c = 0;
  early_ok = cacs_read(early[0], &c, 1, 2000000) == 1 && c == 'e';
}

static int test_fork(void) {
  int fds = test_begin(60);
  printf("parent engine: %s\n", io_engine_name(cacs_io_engine()));
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, early) == 0);
  cacs_coro *e = cacs_create(early_reader, NULL, 0);
  cacs_yield(); // it waits on the parent's ring
  pid_t pid = fork();
  if (pid == 0) {
    errno = 0;
    long r = refuse_io_uring(EPERM) == 0
                 ? syscall(__NR_io_uring_setup, 0, NULL)
                 : 0;
    printf("child: io_uring_setup refused: %s\n",
           r == -1 && errno == EPERM ? "yes" : "no");
    EXPECT(write(early[1], "e", 1) == 1);
    cacs_join(e);
    printf("child: reader parked before the fork got its byte %s\n",
           early_ok ? "ok" : "FAILED");
    failures += !early_ok;
    printf("child engine: %s\n", io_engine_name(cacs_io_engine()));
    EXPECT(cacs_io_engine() == CACS_IO_ENGINE_EPOLL);
    test_echo();
    test_timeout();
    printf("child: %s\n", failures ? "FAIL" : "PASS");
    _exit(failures != 0);
  }
  // The parent's copy of the reader must not take the child's byte: its
  // end is closed before its loop polls again (io-fork.c).
  cacs_close(early[0]);
  cacs_join(e);
  close(early[1]);
  int status = 0;
  EXPECT(waitpid(pid, &status, 0) == pid);
  EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  printf("parent engine after: %s\n", io_engine_name(cacs_io_engine()));
  EXPECT(cacs_io_engine() == CACS_IO_ENGINE_URING);
  return test_end(fds);
}

// argv[1]: enosys, eperm or none (the filter), or fork (test_fork);
// argv[2]: how io_uring is
// asked for: env (CACS_IO_ENGINE, set by the RUN line), call
// (cacs_io_set_engine) or auto (neither).
int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  if (!strcmp(argv[1], "fork"))
    return test_fork();
  int err = !strcmp(argv[1], "enosys")  ? ENOSYS
            : !strcmp(argv[1], "eperm") ? EPERM
                                        : 0;
  if (err && refuse_io_uring(err) != 0) {
    printf("seccomp: %s\n", strerror(errno));
    return 1;
  }
  errno = 0;
  long r = syscall(__NR_io_uring_setup, 0, NULL);
  printf("io_uring_setup refused: %s\n",
         r == -1 && err && errno == err ? "yes" : "no");
  if (!strcmp(argv[2], "call"))
    cacs_io_set_engine(CACS_IO_ENGINE_URING);
  int fds = test_begin(60);
  printf("engine: %s\n", io_engine_name(cacs_io_engine()));
  EXPECT(cacs_io_engine() == CACS_IO_ENGINE_EPOLL);
  test_echo();
  test_timeout();
  pthread_t t;
  EXPECT(pthread_create(&t, NULL, other_thread, NULL) == 0);
  pthread_join(t, NULL);
  printf("another thread: %s %s\n", io_engine_name(thread_engine),
         thread_engine == CACS_IO_ENGINE_EPOLL ? "ok" : "FAILED");
  return test_end(fds);
}
