// The engine a thread gets when nothing asks for one (cacs/io.h,
// "Engines"): io_uring where the kernel gives a ring. CACS_IO_ENGINE=epoll
// and cacs_io_set_engine(CACS_IO_ENGINE_EPOLL) still choose epoll, a value
// of CACS_IO_ENGINE the module does not know leaves the choice to it, and
// cacs_io_set_engine(CACS_IO_ENGINE_AUTO) leaves it to the environment.
// Each thread picks at its first call: a second thread, started after the
// first picked, gets the same default. io-uring-fallback.c covers the
// kernels that refuse a ring.
//
// REQUIRES: io-uring
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t
// RUN: env -u CACS_IO_ENGINE -u CACS_TEST_IO_ENGINE %t none | FileCheck %s --check-prefix=URING
// RUN: env -u CACS_TEST_IO_ENGINE CACS_IO_ENGINE=io_uring %t none | FileCheck %s --check-prefix=URING
// RUN: env -u CACS_TEST_IO_ENGINE CACS_IO_ENGINE=epoll %t none | FileCheck %s --check-prefix=EPOLL
// RUN: env -u CACS_TEST_IO_ENGINE CACS_IO_ENGINE=epoll %t auto | FileCheck %s --check-prefix=EPOLL
// RUN: env -u CACS_IO_ENGINE -u CACS_TEST_IO_ENGINE %t epoll | FileCheck %s --check-prefix=EPOLL
//
// URING: before the first call: auto
// URING-NEXT: engine: uring
// URING-NEXT: read: ok
// URING-NEXT: another thread: uring
// URING-NEXT: descriptors: none leaked
// URING-NEXT: PASS
// EPOLL: before the first call: auto
// EPOLL-NEXT: engine: epoll
// EPOLL-NEXT: read: ok
// EPOLL-NEXT: another thread: epoll
// EPOLL-NEXT: descriptors: none leaked
// EPOLL-NEXT: PASS

#define _GNU_SOURCE 1
#define IO_TEST_OWN_ENGINE 1 // the RUN lines choose how the engine is asked
#include "Inputs/io-test.h"

#include <pthread.h>

static int thread_engine;

static void *other_thread(void *arg) {
  (void)arg;
  io_warm_up(); // the thread's first call picks its engine
  thread_engine = cacs_io_engine();
  return NULL;
}

// A byte written before a coroutine reads it through the engine.
static void reader(void *arg) {
  int fd = *(int *)arg;
  char c = 0;
  EXPECT(cacs_read(fd, &c, 1, 2000000) == 1 && c == 'x');
}

// argv[1]: what the program asks for with cacs_io_set_engine before its
// first call: none, auto (CACS_IO_ENGINE_AUTO) or epoll.
int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  setvbuf(stdout, NULL, _IONBF, 0);
  printf("before the first call: %s\n", io_engine_name(cacs_io_engine()));
  if (!strcmp(argv[1], "auto"))
    EXPECT(cacs_io_set_engine(CACS_IO_ENGINE_AUTO) == CACS_IO_ENGINE_AUTO);
  else if (!strcmp(argv[1], "epoll"))
    EXPECT(cacs_io_set_engine(CACS_IO_ENGINE_EPOLL) == CACS_IO_ENGINE_AUTO);
  int fds = test_begin(30);
  printf("engine: %s\n", io_engine_name(cacs_io_engine()));

  int sv[2];
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
  cacs_coro *r = cacs_create(reader, &sv[0], 0);
  cacs_yield(); // the reader waits on the engine
  EXPECT(write(sv[1], "x", 1) == 1);
  cacs_join(r);
  cacs_close(sv[0]);
  cacs_close(sv[1]);
  printf("read: %s\n", failures ? "FAILED" : "ok");

  pthread_t t;
  EXPECT(pthread_create(&t, NULL, other_thread, NULL) == 0);
  pthread_join(t, NULL);
  printf("another thread: %s\n", io_engine_name(thread_engine));
  return test_end(fds);
}
