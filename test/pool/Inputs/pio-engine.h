// The pool's I/O tests run once per engine of cacs/io.h (test/io_engines.py
// sets CACS_TEST_IO_ENGINE beside CACS_IO_ENGINE): a pool coroutine's calls
// must run on that engine (cacs_io_engine in a pool coroutine: its worker's),
// or the pass would test the other engine again. The aarch64 library is built
// without liburing: epoll in both passes there.
#ifndef CACS_TEST_PIO_ENGINE_H
#define CACS_TEST_PIO_ENGINE_H

#include "cacs/io.h"
#include "cacs/pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void pio_engine_of(void *arg) { *(int *)arg = cacs_io_engine(); }

static inline void pio_check_engine(cacs_pool *p) {
  const char *pass = getenv("CACS_TEST_IO_ENGINE");
  int e = 0;
  cacs_pool_join(cacs_pool_spawn(p, pio_engine_of, &e));
  const char *got = e == CACS_IO_ENGINE_URING   ? "uring"
                    : e == CACS_IO_ENGINE_EPOLL ? "epoll"
                                                : "none";
#ifndef __x86_64__
  if (pass && strcmp(pass, "uring") == 0)
    pass = "epoll";
#endif
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
  // Linked with the runtime's objects rebuilt with TSan (%cacs_rt_objs),
  // which have no liburing: epoll in both passes.
  if (pass && strcmp(pass, "uring") == 0)
    pass = "epoll";
#endif
#endif
  if (pass && strcmp(pass, got) != 0) {
    printf("FAIL: the pool's engine is %s in the lit pass of %s\n", got, pass);
    exit(1);
  }
}

#endif // CACS_TEST_PIO_ENGINE_H
