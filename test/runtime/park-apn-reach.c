// -fauto-preserve-none reaches the code that waits: coro.h, io.h and sync.h
// bind the waiting calls to preserve_none entries, so a local function
// calling one becomes preserve_none (and its own callers after it). With
// CACS_YIELD_FULL_SAVE=1 they keep the C convention and APN infects
// nothing.
//
// RUN: %clang -O2 -fauto-preserve-none -Rpass=auto-preserve-none -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none -Rpass=auto-preserve-none -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -DCACS_YIELD_FULL_SAVE=1 -Rpass=auto-preserve-none -I%cacs_include -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=FULL --allow-empty %s
//
// CHECK-DAG: remark: made 'w_park' preserve_none: it calls preserve_none 'cacs__park_pn'
// CHECK-DAG: remark: made 'w_park_timeout' preserve_none: it calls preserve_none 'cacs__park_timeout_pn'
// CHECK-DAG: remark: made 'w_sleep' preserve_none: it calls preserve_none 'cacs__sleep_pn'
// CHECK-DAG: remark: made 'w_join' preserve_none: it calls preserve_none 'cacs__join_pn'
// CHECK-DAG: remark: made 'w_wait_fd' preserve_none: it calls preserve_none 'cacs__wait_fd_pn'
// CHECK-DAG: remark: made 'w_read' preserve_none: it calls preserve_none 'cacs__read_pn'
// CHECK-DAG: remark: made 'w_write' preserve_none: it calls preserve_none 'cacs__write_pn'
// CHECK-DAG: remark: made 'w_readv' preserve_none: it calls preserve_none 'cacs__readv_pn'
// CHECK-DAG: remark: made 'w_writev' preserve_none: it calls preserve_none 'cacs__writev_pn'
// CHECK-DAG: remark: made 'w_recv' preserve_none: it calls preserve_none 'cacs__recv_pn'
// CHECK-DAG: remark: made 'w_send' preserve_none: it calls preserve_none 'cacs__send_pn'
// CHECK-DAG: remark: made 'w_write_all' preserve_none: it calls preserve_none 'cacs__write_all_pn'
// CHECK-DAG: remark: made 'w_accept' preserve_none: it calls preserve_none 'cacs__accept_pn'
// CHECK-DAG: remark: made 'w_connect' preserve_none: it calls preserve_none 'cacs__connect_pn'
// CHECK-DAG: remark: made 'w_mutex_lock' preserve_none: it calls preserve_none 'cacs__mutex_lock_pn'
// CHECK-DAG: remark: made 'w_cond_wait' preserve_none: it calls preserve_none 'cacs__cond_wait_pn'
// CHECK-DAG: remark: made 'w_sem_wait' preserve_none: it calls preserve_none 'cacs__sem_wait_pn'
// CHECK-DAG: remark: made 'w_waitgroup_wait' preserve_none: it calls preserve_none 'cacs__waitgroup_wait_pn'
// CHECK-DAG: remark: made 'w_chan_send' preserve_none: it calls preserve_none 'cacs__chan_send_pn'
// CHECK-DAG: remark: made 'w_chan_recv' preserve_none: it calls preserve_none 'cacs__chan_recv_pn'
// CHECK-DAG: remark: made 'w_xsem_wait' preserve_none: it calls preserve_none 'cacs__xsem_wait_pn'
// CHECK-DAG: remark: made 'handle' preserve_none: it calls preserve_none 'w_read'
// FULL-NOT: remark: made

#include "cacs/io.h"
#include "cacs/sync.h"

#define W(name, call)                                                          \
  __attribute__((noinline)) static long w_##name(int fd, void *p) {            \
    (void)fd, (void)p;                                                         \
    return call;                                                               \
  }
W(park, (cacs_park(), 0))
W(park_timeout, cacs_park_timeout(5))
W(sleep, cacs_sleep(5))
W(join, cacs_join((cacs_coro *)p))
W(wait_fd, cacs_wait_fd(fd, EPOLLIN, 5))
W(read, cacs_read(fd, p, 1, 5))
W(write, cacs_write(fd, p, 1, 5))
W(readv, cacs_readv(fd, p, 1, 5))
W(writev, cacs_writev(fd, p, 1, 5))
W(recv, cacs_recv(fd, p, 1, 0, 5))
W(send, cacs_send(fd, p, 1, 0, 5))
W(write_all, cacs_write_all(fd, p, 1, 5))
W(accept, cacs_accept(fd, p, p, 5))
W(connect, cacs_connect(fd, p, 16, 5))
W(mutex_lock, cacs_mutex_lock(p, 5))
W(cond_wait, cacs_cond_wait(p, p, 5))
W(sem_wait, cacs_sem_wait(p, 5))
W(waitgroup_wait, cacs_waitgroup_wait(p, 5))
W(chan_send, cacs_chan_send(p, p, 5))
W(chan_recv, cacs_chan_recv(p, p, 5))
W(xsem_wait, cacs_xsem_wait(p, 5))

// A handler one level up is infected too.
__attribute__((noinline)) static long handle(int fd, void *p) {
  long n = w_read(fd, p);
  return n > 0 ? n + 1 : n;
}

long serve(int fd, void *p) {
  return handle(fd, p) + w_park(fd, p) + w_park_timeout(fd, p) +
         w_sleep(fd, p) + w_join(fd, p) + w_wait_fd(fd, p) + w_write(fd, p) +
         w_readv(fd, p) + w_writev(fd, p) + w_recv(fd, p) + w_send(fd, p) +
         w_write_all(fd, p) + w_accept(fd, p) + w_connect(fd, p) +
         w_mutex_lock(fd, p) + w_cond_wait(fd, p) + w_sem_wait(fd, p) +
         w_waitgroup_wait(fd, p) + w_chan_send(fd, p) + w_chan_recv(fd, p) +
         w_xsem_wait(fd, p);
}
