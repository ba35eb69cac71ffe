//===- lib/fatal.c - Abort with a formatted message -----------------------===//
//
// The runtime's aborts that name what went wrong (deadlock, a handle that
// is not live, a running generator, out of memory where no caller could
// take an error, no thread-specific key): one line on stderr, written with
// one write(2) (no stdio buffering, nothing allocated), then abort.
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

void cacs__fatal(const char *msg) {
  ssize_t r = write(2, msg, strlen(msg));
  (void)r;
  abort();
}

void cacs__fatalf(const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (n < 0)
    n = 0;
  if ((size_t)n >= sizeof msg) { // truncated: keep the newline
    n = sizeof msg - 1;
    msg[n - 1] = '\n';
  }
  ssize_t r = write(2, msg, (size_t)n);
  (void)r;
  abort();
}
