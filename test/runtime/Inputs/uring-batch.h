// What the batched-wait tests share (runtime/io-uring-batch.c for a
// thread's ring, pool/pool-uring-batch.c for a pool worker's): the
// library's io_uring_enter2 calls interposed and counted, whether the
// kernel has the minimum wait at all, and a peer thread with blocking calls
// that streams bursts of small messages over `conns` connections and checks
// every echoed byte.
#ifndef CACS_TEST_URING_BATCH_H
#define CACS_TEST_URING_BATCH_H

#include <errno.h>
#include <liburing.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

// The kernel's minimum wait: a feature bit and io_uring_getevents_arg's
// field after sigmask_sz (`pad` in liburing 2.3).
#define MIN_TIMEOUT_FEATURE (1U << 15)

static atomic_int batched; // waits that may gather more than one completion
static atomic_uint max_nr; // the most completions one of them waited for

int io_uring_enter2(unsigned fd, unsigned submit, unsigned nr, unsigned flags,
                    sigset_t *arg, size_t size) {
  if ((flags & IORING_ENTER_EXT_ARG) &&
      size == sizeof(struct io_uring_getevents_arg)) {
    const struct io_uring_getevents_arg *a = (const void *)arg;
    if (a->pad && nr > 1) {
      atomic_fetch_add(&batched, 1);
      unsigned m = atomic_load(&max_nr);
      while (nr > m && !atomic_compare_exchange_weak(&max_nr, &m, nr))
        ;
    }
  }
  long r = syscall(__NR_io_uring_enter, fd, submit, nr, flags, arg, size);
  return r < 0 ? -errno : (int)r;
}

// Whether this kernel has the minimum wait (else the engine never batches).
static int kernel_min_wait(void) {
  struct io_uring ring;
  struct io_uring_params p;
  memset(&p, 0, sizeof p);
  if (io_uring_queue_init_params(4, &ring, &p) < 0)
    return 0;
  io_uring_queue_exit(&ring);
  return (p.features & MIN_TIMEOUT_FEATURE) != 0;
}

enum { BATCH_MSG = 64 };

// The peer: `cli` are its blocking ends of `conns` connections; bursts of
// one small message per connection, then every echo back (16 bursts at most
// in flight), byte by byte checked into `bad`. It closes its ends.
struct peer {
  const int *cli;
  int conns, bursts, bad;
};

static int read_full(int fd, char *p, size_t n) {
  while (n) {
    ssize_t r = read(fd, p, n);
    if (r <= 0)
      return -1;
    p += r;
    n -= (size_t)r;
  }
  return 0;
}

static void *peer_main(void *arg) {
  struct peer *pr = (struct peer *)arg;
  char msg[BATCH_MSG], back[BATCH_MSG];
  for (int b = 0; b < pr->bursts; b++) {
    for (int c = 0; c < pr->conns; c++) {
      memset(msg, 'a' + (b + c) % 26, sizeof msg);
      if (write(pr->cli[c], msg, sizeof msg) != BATCH_MSG)
        pr->bad++;
    }
    if (b % 16 == 15 || b == pr->bursts - 1)
      for (int k = b - b % 16; k <= b; k++)
        for (int c = 0; c < pr->conns; c++) {
          memset(msg, 'a' + (k + c) % 26, sizeof msg);
          if (read_full(pr->cli[c], back, sizeof back) != 0 ||
              memcmp(back, msg, sizeof msg) != 0)
            pr->bad++;
        }
  }
  for (int c = 0; c < pr->conns; c++)
    close(pr->cli[c]);
  return NULL;
}

#endif // CACS_TEST_URING_BATCH_H
