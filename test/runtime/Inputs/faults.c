// Fault injection for libcacs (issue 36, part 2): wrappers for each
// fallible call libcacs makes. scripts/faults renames NAME to __wrap_NAME
// in the runtime's objects (objcopy --redefine-sym), so libcacs's calls
// come here and the program's, libc's and the sanitizer's do not.
//
// CACS_FAULT=NAME:N makes the N-th call of NAME (counted from 1 across all
// threads) fail as its man page allows; CACS_FAULT=NAME:N,NAME2:M (up to
// MAX_POINTS points) makes each of those calls fail, one fault at each
// point (two points may name the same function). A value that is not such
// a list ends the program with a line saying what is wrong with it (exit
// 2). CACS_FAULT_COUNT=1 prints how many calls of each there were. At exit
// the harness prints one line, which scripts/faults compares with the run
// without a fault:
//   faults: injected LIST [(not reached LIST)] | not reached; fds F; mapped B
// LIST: the points (NAME:N, comma-separated) whose call was made and
// failed, and those never reached; F: descriptors open; B: bytes mapped
// through mmap and not unmapped.
//
// With FAULTS_URING (the runtime built with liburing, whose objects are
// linked in and keep their names), liburing's calls fail too, as its man
// pages say: -errno, or NULL for a full submission queue
// (io_uring_get_sqe, a function when the runtime is compiled with
// LIBURING_INTERNAL) and a probe that cannot be made.

#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>
#ifdef FAULTS_URING
#include <liburing.h>
#endif

#ifdef FAULTS_URING
#define FAULTS_URING_LIST(X)                                                   \
  X(io_uring_queue_init_params, ENOMEM)                                        \
  X(io_uring_get_sqe, EBUSY)                                                   \
  X(io_uring_submit, EAGAIN)                                                   \
  X(io_uring_submit_and_get_events, EAGAIN)                                    \
  X(io_uring_submit_and_wait_timeout, EINTR)                                   \
  X(io_uring_wait_cqes, EINTR)                                                 \
  X(io_uring_register_ring_fd, EBUSY)                                          \
  X(io_uring_get_probe_ring, ENOMEM)
#else
#define FAULTS_URING_LIST(X)
#endif

// X(name, errno of the failure)
#define FAULTS_LIST(X)                                                         \
  X(malloc, ENOMEM)                                                            \
  X(calloc, ENOMEM)                                                            \
  X(realloc, ENOMEM)                                                           \
  X(aligned_alloc, ENOMEM)                                                     \
  X(posix_memalign, ENOMEM)                                                    \
  X(mmap, ENOMEM)                                                              \
  X(mprotect, ENOMEM)                                                          \
  X(madvise, ENOMEM)                                                           \
  X(epoll_create1, EMFILE)                                                     \
  X(epoll_ctl, ENOMEM)                                                         \
  X(timerfd_create, EMFILE)                                                    \
  X(eventfd, EMFILE)                                                           \
  X(pipe2, EMFILE)                                                             \
  X(pthread_create, EAGAIN)                                                    \
  X(pthread_key_create, EAGAIN)                                                \
  X(sigaltstack, ENOMEM)                                                       \
  X(process_madvise, ENOMEM)                                                   \
  FAULTS_URING_LIST(X)

enum {
#define X(n, e) F_##n,
  FAULTS_LIST(X)
#undef X
      F_COUNT
};
static const char *const names[] = {
#define X(n, e) #n,
    FAULTS_LIST(X)
#undef X
};
static const int errs[] = {
#define X(n, e) e,
    FAULTS_LIST(X)
#undef X
};

static atomic_long calls[F_COUNT], mapped;
enum { MAX_POINTS = 8 };
static struct {
  int f;  // F_*
  long n; // the call of f that fails
  atomic_int hit;
} points[MAX_POINTS];
static int npoints;

__attribute__((noreturn)) static void
bad_spec(const char *spec, const char *why, int len, const char *point) {
  fprintf(stderr, "faults: bad CACS_FAULT=%s: %s", spec, why);
  if (point)
    fprintf(stderr, " '%.*s'", len, point);
  fprintf(stderr, " (want NAME:N[,NAME:N...], N >= 1, at most %d points)\n",
          MAX_POINTS);
  _exit(2);
}

// CACS_FAULT: NAME:N, comma-separated.
__attribute__((constructor)) static void faults_init(void) {
  const char *spec = getenv("CACS_FAULT");
  if (!spec || !*spec)
    return;
  for (const char *p = spec;; ++p) {
    const char *end = strchr(p, ',');
    int len = end ? (int)(end - p) : (int)strlen(p);
    const char *colon = memchr(p, ':', (size_t)len);
    if (!len)
      bad_spec(spec, "an empty point", 0, NULL);
    if (!colon)
      bad_spec(spec, "no ':N' in", len, p);
    if (npoints == MAX_POINTS)
      bad_spec(spec, "too many points at", len, p);
    int f = -1;
    for (int i = 0; i < F_COUNT; i++)
      if (strlen(names[i]) == (size_t)(colon - p) &&
          !strncmp(p, names[i], (size_t)(colon - p)))
        f = i;
    if (f < 0)
      bad_spec(spec, "no wrapped function of that name in", len, p);
    // N: decimal digits only, from 1 to LONG_MAX.
    long n = 0;
    int over = 0;
    const char *d = colon + 1;
    for (; d < p + len && *d >= '0' && *d <= '9'; ++d) {
      over |= n > (LONG_MAX - (*d - '0')) / 10;
      n = over ? 0 : n * 10 + (*d - '0');
    }
    if (d == colon + 1 || d != p + len || over || n <= 0)
      bad_spec(spec, "N is not a number from 1 to LONG_MAX in", len, p);
    for (int i = 0; i < npoints; i++)
      if (points[i].f == f && points[i].n == n)
        bad_spec(spec, "a point given twice:", len, p);
    points[npoints].f = f;
    points[npoints++].n = n;
    if (!end)
      break;
    p = end;
  }
}

// A program's hook, called with the wrapped function's name before each of
// libcacs's calls of it (whether or not the call fails): it can act at a
// point inside libcacs that no call of the program reaches, as a racing
// thread would (faults-close.c closes a descriptor there).
void faults_before_call(const char *name) __attribute__((weak));

#ifdef FAULTS_URING
// A program's hook, called with the timeout (NULL: none) of each of
// libcacs's waits in an io_uring ring before it waits, and that returns the
// timeout to wait with: faults-kick.c drops the pool's sweep, so that a
// wake the ring does not watch for is a hang, not a delay.
struct __kernel_timespec *faults_ring_wait(struct __kernel_timespec *ts)
    __attribute__((weak));
#endif

// Whether this call of `f` is the one to fail (then errno is set).
static int fail(int f) {
  if (faults_before_call)
    faults_before_call(names[f]);
  long n = atomic_fetch_add(&calls[f], 1) + 1;
  for (int i = 0; i < npoints; i++)
    if (points[i].f == f && points[i].n == n) {
      atomic_store(&points[i].hit, 1);
      errno = errs[f];
      return 1;
    }
  return 0;
}

static int open_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  int n = 0;
  if (!d)
    return -1;
  for (struct dirent *e; (e = readdir(d));)
    n += e->d_name[0] != '.';
  closedir(d);
  return n - 1; // the directory's own
}

__attribute__((destructor)) static void faults_report(void) {
  if (getenv("CACS_FAULT_COUNT"))
    for (int i = 0; i < F_COUNT; i++)
      fprintf(stderr, "faults: count %s %ld\n", names[i],
              atomic_load(&calls[i]));
  // The points reached, then those not: "injected A:1,B:2 (not reached
  // C:3)"; "not reached" when none was.
  int reached = 0, missed = 0;
  for (int i = 0; i < npoints; i++)
    if (atomic_load(&points[i].hit))
      fprintf(stderr, "%s%s:%ld", reached++ ? "," : "faults: injected ",
              names[points[i].f], points[i].n);
  if (!reached)
    fprintf(stderr, "faults: not reached");
  else
    for (int i = 0; i < npoints; i++)
      if (!atomic_load(&points[i].hit))
        fprintf(stderr, "%s%s:%ld", missed++ ? "," : " (not reached ",
                names[points[i].f], points[i].n);
  if (missed)
    fputc(')', stderr);
  fprintf(stderr, "; fds %d; mapped %ld\n", open_fds(), atomic_load(&mapped));
}


void *__wrap_malloc(size_t n) { return fail(F_malloc) ? NULL : malloc(n); }
void *__wrap_calloc(size_t n, size_t s) {
  return fail(F_calloc) ? NULL : calloc(n, s);
}
void *__wrap_realloc(void *p, size_t n) {
  return fail(F_realloc) ? NULL : realloc(p, n);
}
void *__wrap_aligned_alloc(size_t a, size_t n) {
  return fail(F_aligned_alloc) ? NULL : aligned_alloc(a, n);
}
int __wrap_posix_memalign(void **p, size_t a, size_t n) {
  return fail(F_posix_memalign) ? ENOMEM : posix_memalign(p, a, n);
}
void *__wrap_mmap(void *a, size_t n, int prot, int fl, int fd, off_t off) {
  if (fail(F_mmap))
    return MAP_FAILED;
  void *p = mmap(a, n, prot, fl, fd, off);
  if (p != MAP_FAILED)
    atomic_fetch_add(&mapped, (long)n);
  return p;
}
int __wrap_munmap(void *a, size_t n) {
  int r = munmap(a, n);
  if (r == 0)
    atomic_fetch_sub(&mapped, (long)n);
  return r;
}
int __wrap_mprotect(void *a, size_t n, int prot) {
  return fail(F_mprotect) ? -1 : mprotect(a, n, prot);
}
int __wrap_madvise(void *a, size_t n, int adv) {
  return fail(F_madvise) ? -1 : madvise(a, n, adv);
}
int __wrap_epoll_create1(int fl) {
  return fail(F_epoll_create1) ? -1 : epoll_create1(fl);
}
int __wrap_epoll_ctl(int ep, int op, int fd, struct epoll_event *ev) {
  return fail(F_epoll_ctl) ? -1 : epoll_ctl(ep, op, fd, ev);
}
int __wrap_timerfd_create(int clk, int fl) {
  return fail(F_timerfd_create) ? -1 : timerfd_create(clk, fl);
}
int __wrap_eventfd(unsigned v, int fl) {
  return fail(F_eventfd) ? -1 : eventfd(v, fl);
}
int __wrap_pipe2(int fds[2], int fl) {
  return fail(F_pipe2) ? -1 : pipe2(fds, fl);
}
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a,
                          void *(*fn)(void *), void *arg) {
  return fail(F_pthread_create) ? EAGAIN : pthread_create(t, a, fn, arg);
}
int __wrap_pthread_key_create(pthread_key_t *k, void (*d)(void *)) {
  return fail(F_pthread_key_create) ? EAGAIN : pthread_key_create(k, d);
}
int __wrap_sigaltstack(const stack_t *ss, stack_t *old) {
  return fail(F_sigaltstack) ? -1 : sigaltstack(ss, old);
}
// syscall(2): the runtime makes process_madvise(2) through it (stack.c:
// a batch of advice; after a failure each range takes a madvise of its
// own). Other numbers pass through uncounted.
long __wrap_syscall(long n, ...) {
  va_list ap;
  va_start(ap, n);
  long a[6];
  for (int i = 0; i < 6; i++)
    a[i] = va_arg(ap, long);
  va_end(ap);
  if (n == SYS_process_madvise && fail(F_process_madvise))
    return -1;
  return syscall(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}

#ifdef FAULTS_URING
// liburing's: the failure as -errno (its convention), NULL where it
// returns a pointer.
int __wrap_io_uring_queue_init_params(unsigned n, struct io_uring *r,
                                      struct io_uring_params *p) {
  return fail(F_io_uring_queue_init_params)
             ? -ENOMEM
             : io_uring_queue_init_params(n, r, p);
}
struct io_uring_sqe *__wrap_io_uring_get_sqe(struct io_uring *r) {
  return fail(F_io_uring_get_sqe) ? NULL : io_uring_get_sqe(r);
}
int __wrap_io_uring_submit(struct io_uring *r) {
  return fail(F_io_uring_submit) ? -EAGAIN : io_uring_submit(r);
}
int __wrap_io_uring_submit_and_get_events(struct io_uring *r) {
  return fail(F_io_uring_submit_and_get_events)
             ? -EAGAIN
             : io_uring_submit_and_get_events(r);
}
int __wrap_io_uring_submit_and_wait_timeout(struct io_uring *r,
                                            struct io_uring_cqe **c, unsigned n,
                                            struct __kernel_timespec *ts,
                                            sigset_t *m) {
  if (fail(F_io_uring_submit_and_wait_timeout))
    return -EINTR;
  if (faults_ring_wait)
    ts = faults_ring_wait(ts);
  return io_uring_submit_and_wait_timeout(r, c, n, ts, m);
}
int __wrap_io_uring_wait_cqes(struct io_uring *r, struct io_uring_cqe **c,
                              unsigned n, struct __kernel_timespec *ts,
                              sigset_t *m) {
  if (fail(F_io_uring_wait_cqes))
    return -EINTR;
  if (faults_ring_wait)
    ts = faults_ring_wait(ts);
  return io_uring_wait_cqes(r, c, n, ts, m);
}
int __wrap_io_uring_register_ring_fd(struct io_uring *r) {
  return fail(F_io_uring_register_ring_fd) ? -EBUSY
                                           : io_uring_register_ring_fd(r);
}
struct io_uring_probe *__wrap_io_uring_get_probe_ring(struct io_uring *r) {
  return fail(F_io_uring_get_probe_ring) ? NULL : io_uring_get_probe_ring(r);
}
#endif
