// A shared-stack coroutine's saved copy has a 32-bit capacity (cacs_stack
// save_cap): a shared stack of 4 GiB or more is refused with ENOMEM, as a
// size no mapping can hold is, instead of being mapped.
//
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: %t 2>&1 | FileCheck %s
//
// CHECK: 4 GiB: NULL, ENOMEM
// CHECK-NEXT: 4 GiB less two pages: created, ran
// CHECK-NEXT: PASS

#include "cacs/coro.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int ran;
static void body(void *arg) {
  (void)arg;
  ran = 1;
}

int main(void) {
  cacs_coro_attr a = {(size_t)1 << 32, CACS_STACK_SHARED, 0, NULL};
  errno = 0;
  cacs_coro *c = cacs_create_ex(body, NULL, &a);
  printf("4 GiB: %s, %s\n", c ? "created" : "NULL",
         errno == ENOMEM ? "ENOMEM" : strerror(errno));
  // The largest size taken (mapped, not touched).
  a.stack_size = ((size_t)1 << 32) - 2 * 4096;
  c = cacs_create_ex(body, NULL, &a);
  int ok = c && cacs_join(c) == 0 && ran;
  printf("4 GiB less two pages: %s\n", ok ? "created, ran" : "FAILED");
  puts(ok ? "PASS" : "FAIL");
  return 0;
}
