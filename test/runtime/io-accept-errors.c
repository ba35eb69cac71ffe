// What cacs_accept does with each error of accept4 (issue 36, part 1), the
// errors injected by this program's own accept4 in front of libc's: a
// connection dropped before it was taken (ECONNABORTED, EPROTO) is skipped
// at once; no descriptor or memory for one more (EMFILE, ENFILE, ENOBUFS,
// ENOMEM) backs off 5 ms, doubling, and tries again, on the thread's
// scheduler and in a pool coroutine alike; within a timeout the back-off
// ends in ETIMEDOUT, with timeout 0 it returns the error itself; any other
// error is returned as is. (Arch-neutral C: x86-64 only.)
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t && %t | FileCheck %s
//
// CHECK: ECONNABORTED x3: skipped, accepted after 4 calls
// CHECK-NEXT: EPROTO x2: skipped, accepted after 3 calls
// CHECK-NEXT: EMFILE x3: accepted after 4 calls, backed off >= 35 ms
// CHECK-NEXT: ENFILE x1: accepted after 2 calls, backed off >= 5 ms
// CHECK-NEXT: ENOBUFS x1: accepted after 2 calls, backed off >= 5 ms
// CHECK-NEXT: ENOMEM x2: accepted after 3 calls, backed off >= 15 ms
// CHECK-NEXT: EMFILE, timeout 0: -1 EMFILE after 1 call
// CHECK-NEXT: EMFILE, timeout 30 ms: -1 ETIMEDOUT, waited >= 30 ms
// CHECK-NEXT: EINVAL: -1 EINVAL after 1 call
// CHECK-NEXT: pool coroutine, EMFILE x2: accepted after 3 calls, backed off >= 15 ms
// CHECK-NEXT: descriptors: none leaked
// CHECK-NEXT: PASS

#define _GNU_SOURCE 1
#include "Inputs/io-test.h"
#include "cacs/pool.h"

#include <dlfcn.h>
#include <stdatomic.h>

static atomic_int inject_left, inject_err, calls;

// libcacs_io's accept4 resolves to this one (the program's own symbol).
int accept4(int fd, struct sockaddr *a, socklen_t *l, int flags) {
  static int (*real)(int, struct sockaddr *, socklen_t *, int);
  if (!real)
    real = (int (*)(int, struct sockaddr *, socklen_t *, int))dlsym(
        RTLD_NEXT, "accept4");
  atomic_fetch_add(&calls, 1);
  if (atomic_load(&inject_left) > 0) {
    atomic_fetch_sub(&inject_left, 1);
    errno = atomic_load(&inject_err);
    return -1;
  }
  return real(fd, a, l, flags);
}

static int lfd;
static struct sockaddr_in addr;

static void inject(int err, int n) {
  atomic_store(&inject_err, err);
  atomic_store(&inject_left, n);
  atomic_store(&calls, 0);
}

// A connection waiting in the listener's queue (connect completes without
// an accept), closed by the caller.
static int pending(void) {
  int c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  EXPECT(connect(c, (struct sockaddr *)&addr, sizeof addr) == 0);
  return c;
}

static void accepted(const char *what, int n, int64_t min_ms, int err,
                     int64_t timeout_us) {
  int c = pending();
  inject(err, n);
  int64_t t0 = now_us();
  int fd = cacs_accept(lfd, NULL, NULL, timeout_us);
  int64_t ms = (now_us() - t0) / 1000;
  EXPECT(fd >= 0);
  EXPECT(ms >= min_ms);
  if (min_ms)
    printf("%s x%d: accepted after %d calls, backed off >= %lld ms\n", what,
           n, atomic_load(&calls), (long long)min_ms);
  else
    printf("%s x%d: skipped, accepted after %d calls\n", what, n,
           atomic_load(&calls));
  if (fd >= 0)
    cacs_close(fd);
  close(c);
}

static void in_pool(void *arg) {
  (void)arg;
  accepted("pool coroutine, EMFILE", 2, 15, EMFILE, CACS_FOREVER);
}


int main(void) {
  int fds = test_begin(30);
  lfd = listen_loopback(64, &addr);
  EXPECT(lfd >= 0);
  accepted("ECONNABORTED", 3, 0, ECONNABORTED, CACS_FOREVER);
  accepted("EPROTO", 2, 0, EPROTO, CACS_FOREVER);
  accepted("EMFILE", 3, 35, EMFILE, CACS_FOREVER);
  accepted("ENFILE", 1, 5, ENFILE, CACS_FOREVER);
  accepted("ENOBUFS", 1, 5, ENOBUFS, 10 * 1000000);
  accepted("ENOMEM", 2, 15, ENOMEM, CACS_FOREVER);

  int c = pending();
  inject(EMFILE, 1000);
  int r = cacs_accept(lfd, NULL, NULL, 0);
  int e = errno;
  printf("EMFILE, timeout 0: %d %s after %d call%s\n", r, strerrorname_np(e),
         atomic_load(&calls), atomic_load(&calls) == 1 ? "" : "s");
  EXPECT(r == -1 && e == EMFILE);

  int64_t t0 = now_us();
  r = cacs_accept(lfd, NULL, NULL, 30000);
  e = errno;
  int64_t ms = (now_us() - t0) / 1000;
  printf("EMFILE, timeout 30 ms: %d %s, waited >= 30 ms\n", r,
         strerrorname_np(e));
  EXPECT(r == -1 && e == ETIMEDOUT && ms >= 30 && ms < 2000);

  inject(EINVAL, 1);
  r = cacs_accept(lfd, NULL, NULL, CACS_FOREVER);
  e = errno;
  printf("EINVAL: %d %s after %d call%s\n", r, strerrorname_np(e), atomic_load(&calls),
         atomic_load(&calls) == 1 ? "" : "s");
  EXPECT(r == -1 && e == EINVAL);
  close(c); // still queued: the pool's accept takes a fresh one
  c = cacs_accept(lfd, NULL, NULL, CACS_FOREVER);
  EXPECT(c >= 0);
  cacs_close(c);

  cacs_pool *p = cacs_pool_create(1);
  cacs_pool_join(cacs_pool_spawn(p, in_pool, NULL));
  cacs_pool_destroy(p);
  cacs_close(lfd);
  return test_end(fds);
}
