// A block opened with cacs_sync_begin and left open at a return, for the
// caller to close: a warning that what runs until it ends is not checked
// at compile time. A block closed on every path is no warning.
//
// RUN: %clang -O0 -g -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
//
// CHECK: open-at-return.c:[[@LINE+8]]:{{[0-9]+}}: warning: the sync block at {{.*}}open-at-return.c:[[@LINE+6]] may still be open when 'open_block' returns
// CHECK-NOT: warning:
#include "cacs/syncblock.h"

int busy;
cacs_sync_token open_block(void) {
  cacs_sync_token t = cacs_sync_begin(__FILE__, __LINE__);
  busy = 1;
  return t;
}

void closed(int n) {
  cacs_sync_token t = cacs_sync_begin(__FILE__, __LINE__);
  if (n)
    busy = n;
  cacs_sync_end(&t);
}
