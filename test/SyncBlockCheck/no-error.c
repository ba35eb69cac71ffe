// What is not an error: plain calls, libc, an indirect call (the run-time
// check's), and switches outside the blocks: after a block ends, after a
// break or a return out of one, after nested blocks.
//
// RUN: %clang -O0 -g -I%cacs_include -c %s -o /dev/null 2>&1 | count 0
// RUN: %clang -O2 -g -I%cacs_include -c %s -o /dev/null 2>&1 | count 0
// RUN: %clang %aarch64_flags -O0 -g -I%cacs_include -c %s -o /dev/null 2>&1 | count 0
#include "cacs/coro.h"
#include "cacs/syncblock.h"
#include <stdio.h>

static int plain(int x) { return x * 2; }

int fine(int n, void (*f)(void)) {
  int r = 0;
  CACS_SYNC {
    r = plain(n);
    printf("%d\n", r);
    f();
    if (n > 3)
      break;
    r += 1;
  }
  cacs_yield();
  CACS_SYNC {
    if (n)
      return r;
  }
  cacs_yield();
  CACS_SYNC {
    CACS_SYNC { r += 1; }
  }
  cacs_yield();
  return r;
}
