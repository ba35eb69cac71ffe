// Shared by the test/runtime/io-*.c tests: failure counting, a clock, a
// descriptor count for leak checks, and a watchdog so no test can hang.
#ifndef CACS_TEST_IO_TEST_H
#define CACS_TEST_IO_TEST_H

#include "cacs/io.h"

#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define EXPECT(c)                                                              \
  do {                                                                         \
    if (!(c)) {                                                                \
      printf("FAIL line %d: %s (errno %d %s)\n", __LINE__, #c, errno,          \
             strerror(errno));                                                 \
      ++failures;                                                              \
    }                                                                          \
  } while (0)
#include "check.h"

// Open descriptors of this process.
static inline int fd_count(void) {
  DIR *d = opendir("/proc/self/fd");
  if (!d)
    return -1;
  int n = 0;
  while (readdir(d))
    n++;
  closedir(d);
  return n - 3; // ".", "..", and the directory's own descriptor
}

// A listening TCP socket on 127.0.0.1, on a port the kernel picks.
static inline int listen_loopback(int backlog, struct sockaddr_in *addr) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return -1;
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
      listen(fd, backlog) != 0 ||
      getsockname(fd, (struct sockaddr *)&a, &len) != 0) {
    close(fd);
    return -1;
  }
  *addr = a;
  return fd;
}

// A TCP connection to `addr` through cacs_connect.
static inline int connect_loopback(const struct sockaddr_in *addr,
                                   int64_t timeout_us) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return -1;
  if (cacs_connect(fd, (const struct sockaddr *)addr, sizeof *addr,
                   timeout_us) != 0) {
    int e = errno;
    cacs_close(fd);
    errno = e;
    return -1;
  }
  return fd;
}

// A connected TCP pair over loopback through the module's calls: c[0] the
// client end, c[1] the server's.
static inline void tcp_pair_loopback(int c[2]) {
  struct sockaddr_in a;
  int l = listen_loopback(4, &a);
  EXPECT(l >= 0);
  c[0] = connect_loopback(&a, 2000000);
  EXPECT(c[0] >= 0);
  c[1] = cacs_accept(l, NULL, NULL, 2000000);
  EXPECT(c[1] >= 0);
  cacs_close(l);
}

// The name of an engine of cacs_io_engine().
static inline const char *io_engine_name(int e) {
  return e == CACS_IO_ENGINE_URING   ? "uring"
         : e == CACS_IO_ENGINE_EPOLL ? "epoll"
                                     : "auto";
}

// Create the thread's epoll loop (it holds a descriptor until the thread
// exits), so that fd_count() before and after a test compares like with
// like.
static inline void io_warm_up(void) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    abort();
  char c;
  if (cacs_read(sv[0], &c, 1, 1) != -1 || errno != ETIMEDOUT)
    abort();
  cacs_close(sv[0]);
  cacs_close(sv[1]);
}

// After the thread's first call: the engine is the one of the lit pass
// that runs the test (test/io_engines.py sets CACS_TEST_IO_ENGINE beside
// CACS_IO_ENGINE), or the pass would test the other engine again. A test
// that picks its engine itself defines IO_TEST_OWN_ENGINE. The aarch64
// library is built without liburing: epoll in both passes there.
static inline void io_check_engine(void) {
#ifndef IO_TEST_OWN_ENGINE
  const char *pass = getenv("CACS_TEST_IO_ENGINE");
#ifndef __x86_64__
  if (pass && strcmp(pass, "uring") == 0)
    pass = "epoll";
#endif
  const char *got = io_engine_name(cacs_io_engine());
  if (pass && strcmp(pass, got) != 0) {
    printf("FAIL: engine %s in the lit pass of %s\n", got, pass);
    ++failures;
  }
#endif
}

// The start of every test: unbuffered output, the watchdog, the loop; returns
// the descriptor count to give test_end.
static inline int test_begin(unsigned watchdog_seconds) {
  setvbuf(stdout, NULL, _IONBF, 0);
  watchdog(watchdog_seconds);
  io_warm_up();
  io_check_engine();
  return fd_count();
}

// The end: no descriptor and no coroutine left; prints the verdict and
// returns main's exit status.
static inline int test_end(int fds) {
  int leaked = fd_count() - fds;
  EXPECT(leaked == 0);
  printf("descriptors: %s\n", leaked ? "LEAKED" : "none leaked");
  EXPECT(cacs_count() == 0);
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}

#endif // CACS_TEST_IO_TEST_H
