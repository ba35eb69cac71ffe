//===- lib/fatal.c - Abort with a formatted message -----------------------===//
//
// The runtime's aborts that name what went wrong (deadlock, a handle that
// is not live, a running generator, out of memory where no caller could
// take an error, no thread-specific key): one line on stderr, written with
// one write(2) (no stdio buffering, nothing allocated), then abort.
//
// Both run on the thread's system stack where it can be found
// (cacs__deep_call): a misuse that a wait reports (a single-thread wait in
// a pool coroutine, a handle joined twice, a switch in a sync block) may
// come from a coroutine on an exact stack, which has room for the wait's
// stack budget only (cacs/detail/contract.h), and vsnprintf's frames, the
// message's buffer and abort's alone use more than that budget. Moved,
// what the abort leaves on the coroutine's stack is the call and the move.
//
//===----------------------------------------------------------------------===//

#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cacs__key_create(pthread_key_t *key, void (*dtor)(void *),
                      const char *what) {
  int e = pthread_key_create(key, dtor);
  if (e != 0)
    cacs__fatalf("cacs: no thread-specific key for %s: %s\n", what,
                 strerror(e));
}

struct fatal_msg {
  const char *fmt; // or the whole message, with ap NULL
  va_list *ap;
};

__attribute__((noreturn)) static void fatal_write(void *p) {
  struct fatal_msg *m = p;
  char msg[512];
  const char *out = m->fmt;
  size_t len;
  if (m->ap) {
    int n = vsnprintf(msg, sizeof msg, m->fmt, *m->ap);
    if (n < 0)
      n = 0;
    if ((size_t)n >= sizeof msg) { // truncated: keep the newline
      n = sizeof msg - 1;
      msg[n - 1] = '\n';
    }
    out = msg;
    len = (size_t)n;
  } else {
    len = strlen(out);
  }
  ssize_t r = write(2, out, len);
  (void)r;
  abort();
}

void cacs__fatal(const char *msg) {
  struct fatal_msg m = {msg, NULL};
  cacs__deep_call(fatal_write, &m);
  __builtin_unreachable();
}

void cacs__fatalf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  struct fatal_msg m = {fmt, &ap};
  cacs__deep_call(fatal_write, &m);
  __builtin_unreachable();
}
