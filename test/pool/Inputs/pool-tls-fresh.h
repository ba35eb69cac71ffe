// The thread-local variable of the pool TLS tests, and its and errno's
// addresses as the thread running the call sees them: out of line and
// opaque, so neither can be merged with the caller's own.
#ifndef POOL_TLS_FRESH_H
#define POOL_TLS_FRESH_H

#include <errno.h>

static __thread int tls;

__attribute__((noinline)) static int *fresh_errno(void) {
  int *p = &errno;
  __asm__ volatile("" : "+r"(p) : : "memory");
  return p;
}
__attribute__((noinline)) static int *fresh_tls(void) {
  int *p = &tls;
  __asm__ volatile("" : "+r"(p) : : "memory");
  return p;
}

#endif
