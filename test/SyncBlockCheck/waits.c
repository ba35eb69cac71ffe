// The waits that run another coroutine stay errors inside a sync block, as
// they abort there at run time: cacs/sync.h's, cacs_join, cacs_sleep; and a
// function that reads (allowed) and then yields is an error through the
// yield. Only the I/O waits and an effect resume are allowed (allowed.c).
//
// RUN: not %clang -O0 -g -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang %aarch64_flags -O2 -g -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
#include "cacs/coro.h"
#include "cacs/io.h"
#include "cacs/sync.h"
#include "cacs/syncblock.h"

__attribute__((noinline)) static void read_then_yield(int fd, char *buf) {
  if (cacs_read(fd, buf, 1, CACS_FOREVER) == 1)
    cacs_yield();
}

cacs_mutex mu = CACS_MUTEX_INIT;
cacs_cond cv = CACS_COND_INIT;

void waits(int fd, char *buf, cacs_coro *c) {
  CACS_SYNC {
    cacs_mutex_lock(&mu, CACS_FOREVER);
    // CHECK: waits.c:[[@LINE-1]]:{{[0-9]+}}: error: call to 'cacs_mutex_lock' inside the sync block at {{.*}}waits.c:[[@LINE-2]] can switch coroutines: cacs_mutex_lock{{$}}
    cacs_cond_wait(&cv, &mu, CACS_FOREVER);
    // CHECK: waits.c:[[@LINE-1]]:{{[0-9]+}}: error: call to 'cacs_cond_wait' inside
    cacs_mutex_unlock(&mu);
    cacs_join(c);
    // CHECK: waits.c:[[@LINE-1]]:{{[0-9]+}}: error: call to 'cacs_join' inside
    cacs_sleep(10);
    // CHECK: waits.c:[[@LINE-1]]:{{[0-9]+}}: error: call to 'cacs_sleep' inside
    read_then_yield(fd, buf);
    // CHECK: waits.c:[[@LINE-1]]:{{[0-9]+}}: error: call to 'read_then_yield' inside the sync block at {{.*}} can switch coroutines: read_then_yield -> cacs_yield{{$}}
  }
}
// CHECK-NOT: error:
