// Register survival across the I/O module's calls that wait (cacs/io.h),
// as park-registers.c checks the core's: each call is made to wait (an
// empty socket to read, a full one to write, a listener without a pending
// connection) while a trasher coroutine makes it ready and puts garbage in
// every register, the frame pointer included, before each switch back.
//
// 1. Each entry (cacs_read, cacs__read_pn, cacs__read_pn_bp, ...) called
//    from assembly with known values in every callee-saved register of the
//    C convention (Inputs/probe.h).
// 2. A C caller keeps many values live across each call as io.h binds it
//    for this compiler and these flags, and compares the frame pointer.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang -O2 -DCACS_YIELD_FULL_SAVE=1 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %tf && %tf | FileCheck %s
// RUN: %stock_clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ts && %ts | FileCheck %s
// The module and the core built with ASan by stock clang (coro.h,
// CACS__PN_DEF):
// RUN: %stock_clang -O1 -fsanitize=address -I%cacs_include %s $(%cacs_rt_objs --io %stock_clang -O1 -fsanitize=address -I%cacs_include) -o %tsasan && %tsasan | FileCheck %s
// RUN: %if gcc %{ gcc -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %tg && %tg | FileCheck %s %}
//
// CHECK: probes: 30 entries ok, garbage seen by the preserve_none ones
// CHECK-NEXT: wait_fd ok
// CHECK-NEXT: read ok
// CHECK-NEXT: readv ok
// CHECK-NEXT: recv ok
// CHECK-NEXT: write ok
// CHECK-NEXT: writev ok
// CHECK-NEXT: send ok
// CHECK-NEXT: write_all ok
// CHECK-NEXT: accept ok
// CHECK-NEXT: connect ok
// CHECK-NEXT: PASS

#include "cacs/io.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "Inputs/probe.h"
#include "Inputs/trash.h"

enum io_kind {
  IO_WAIT_FD,
  IO_READ,
  IO_READV,
  IO_RECV,
  IO_WRITE,
  IO_WRITEV,
  IO_SEND,
  IO_WRITE_ALL,
  IO_ACCEPT,
  IO_CONNECT
};
#define IO_CALLS(X)                                                            \
  X(wait_fd, IO_WAIT_FD) X(read, IO_READ) X(readv, IO_READV)                   \
  X(recv, IO_RECV) X(write, IO_WRITE) X(writev, IO_WRITEV) X(send, IO_SEND)    \
  X(write_all, IO_WRITE_ALL) X(accept, IO_ACCEPT) X(connect, IO_CONNECT)

// Ours (sv[0]) and the trasher's end (sv[1]) of a socket pair; a listener.
static int sv[2], lfd;
static struct sockaddr_in laddr;
static char byte = 'x', inbuf[1];
static struct iovec in_iov = {inbuf, 1}, out_iov = {&byte, 1};

enum action { ACT_NONE, ACT_WRITE, ACT_DRAIN, ACT_CONNECT };
static volatile int action, stop;
static int connected = -1;

static void set_nonblock(int fd) {
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

// Makes the waiting call ready once, then puts garbage everywhere before
// each switch.
static void trasher(void *arg) {
  (void)arg;
  char buf[4096];
  while (!stop) {
    switch (action) {
    case ACT_WRITE:
      EXPECT(write(sv[1], &byte, 1) == 1);
      break;
    case ACT_DRAIN:
      while (read(sv[1], buf, sizeof buf) > 0) {
      }
      break;
    case ACT_CONNECT:
      connected = socket(AF_INET, SOCK_STREAM, 0);
      set_nonblock(connected);
      connect(connected, (struct sockaddr *)&laddr, sizeof laddr);
      break;
    }
    action = ACT_NONE;
    trash();
    yield_bad_fp();
  }
}

// Make a call of this kind wait and have the trasher end the wait; fill
// `args` (the C prototype's order) for it.
static void io_setup(enum io_kind kind, uint64_t args[5]) {
  const uint64_t t = 10 * 1000 * 1000;
  char buf[4096];
  switch (kind) {
  case IO_WAIT_FD:
  case IO_READ:
  case IO_READV:
  case IO_RECV:
    action = ACT_WRITE;
    break;
  case IO_WRITE:
  case IO_WRITEV:
  case IO_SEND:
  case IO_WRITE_ALL:
    while (write(sv[0], buf, sizeof buf) > 0) { // full: the call waits
    }
    action = ACT_DRAIN;
    break;
  case IO_ACCEPT:
    action = ACT_CONNECT;
    break;
  case IO_CONNECT: // may finish at once on loopback
    action = ACT_NONE;
    connected = socket(AF_INET, SOCK_STREAM, 0);
    break;
  }
  uint64_t fd = (uint64_t)sv[0];
  uint64_t in = (uint64_t)(uintptr_t)inbuf, out = (uint64_t)(uintptr_t)&byte;
  uint64_t in_v = (uint64_t)(uintptr_t)&in_iov;
  uint64_t out_v = (uint64_t)(uintptr_t)&out_iov;
  uint64_t a[][5] = {
      [IO_WAIT_FD] = {fd, EPOLLIN, t},    [IO_READ] = {fd, in, 1, t},
      [IO_READV] = {fd, in_v, 1, t},      [IO_RECV] = {fd, in, 1, 0, t},
      [IO_WRITE] = {fd, out, 1, t},       [IO_WRITEV] = {fd, out_v, 1, t},
      [IO_SEND] = {fd, out, 1, 0, t},     [IO_WRITE_ALL] = {fd, out, 1, t},
      [IO_ACCEPT] = {(uint64_t)lfd, 0, 0, t},
      [IO_CONNECT] = {(uint64_t)connected, (uint64_t)(uintptr_t)&laddr,
                      sizeof laddr, t},
  };
  memcpy(args, a[kind], sizeof a[kind]);
}

// Check what the call returned, and put things back for the next one.
static void io_finish(enum io_kind kind, int64_t r) {
  char buf[4096];
  switch (kind) {
  case IO_WAIT_FD:
    EXPECT(r == 0);
    EXPECT(read(sv[0], buf, sizeof buf) == 1);
    break;
  case IO_ACCEPT:
    EXPECT(r >= 0);
    cacs_close((int)r);
    close(connected);
    break;
  case IO_CONNECT: {
    EXPECT(r == 0);
    int a = accept(lfd, NULL, NULL);
    EXPECT(a >= 0);
    close(a);
    cacs_close(connected);
    break;
  }
  default:
    EXPECT(r == 1);
    break;
  }
  // The writes left the buffer partly full: empty it for the reads.
  while (read(sv[1], buf, sizeof buf) > 0) {
  }
}

// --- 1. the entries, called from assembly (Inputs/probe.h) ------------------

IO_CALLS(PROBE_DECLARE)

static void probe_entry(const char *name, void *fn, enum io_kind kind,
                        enum probe_conv conv) {
  uint64_t args[5] = {0};
  io_setup(kind, args);
  probe_check(name, conv, probe(fn, args, conv != CONV_C));
  io_finish(kind, (int64_t)probe_result);
}

static void probe_all(void) {
  int n = 0;
  IO_CALLS(PROBE_ALL)
  probe_report(n);
}

// --- 2. a C caller with many live values -------------------------------------

__attribute__((noinline)) static void live_across(enum io_kind kind,
                                                  const char *name) {
  uint64_t a[5];
  io_setup(kind, a);
  int before = failures;
  LIVE_VALUES_DEFINE(seed, dseed);
  void *fp0, *fp1;
  READ_FP(fp0);
  int64_t r = -1;
  int fd = (int)a[0];
  void *p = (void *)(uintptr_t)a[1];
  switch (kind) {
  case IO_WAIT_FD:
    r = cacs_wait_fd(fd, (uint32_t)a[1], (int64_t)a[2]);
    break;
  case IO_READ:
    r = cacs_read(fd, p, a[2], (int64_t)a[3]);
    break;
  case IO_READV:
    r = cacs_readv(fd, p, (int)a[2], (int64_t)a[3]);
    break;
  case IO_RECV:
    r = cacs_recv(fd, p, a[2], (int)a[3], (int64_t)a[4]);
    break;
  case IO_WRITE:
    r = cacs_write(fd, p, a[2], (int64_t)a[3]);
    break;
  case IO_WRITEV:
    r = cacs_writev(fd, p, (int)a[2], (int64_t)a[3]);
    break;
  case IO_SEND:
    r = cacs_send(fd, p, a[2], (int)a[3], (int64_t)a[4]);
    break;
  case IO_WRITE_ALL:
    r = cacs_write_all(fd, p, a[2], (int64_t)a[3]);
    break;
  case IO_ACCEPT:
    r = cacs_accept(fd, p, (socklen_t *)(uintptr_t)a[2], (int64_t)a[3]);
    break;
  case IO_CONNECT:
    r = cacs_connect(fd, p, (socklen_t)a[2], (int64_t)a[3]);
    break;
  }
  READ_FP(fp1);
  LIVE_VALUES_CHECK(seed, dseed, check);
  check("frame pointer", 0, fp0 == fp1);
  io_finish(kind, r);
  printf("%s %s\n", name, failures == before ? "ok" : "FAILED");
}

int main(void) {
  watchdog(60);
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  set_nonblock(sv[0]);
  set_nonblock(sv[1]);
  lfd = socket(AF_INET, SOCK_STREAM, 0);
  laddr.sin_family = AF_INET;
  laddr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof laddr;
  EXPECT(bind(lfd, (struct sockaddr *)&laddr, len) == 0);
  EXPECT(getsockname(lfd, (struct sockaddr *)&laddr, &len) == 0);
  EXPECT(listen(lfd, 16) == 0);
  cacs_coro *t = cacs_create(trasher, NULL, 0);
  probe_all();
#define LIVE(name, kind) live_across(kind, #name);
  IO_CALLS(LIVE)
  stop = 1;
  cacs_join(t);
  if (failures)
    return 1;
  printf("PASS\n");
  return 0;
}
