// A TCP proxy between clients and an echo server, in one program, as a
// user of libcacs would write it: per session, one coroutine pumps each
// direction (two coroutines use each socket at once, one reading, one
// writing) and half-closes its destination at end of file; the first
// upstream tried for some sessions accepts no connection (its backlog is
// full), so their connect times out and the session falls back to the
// echo server. Clients write and read at once on one socket, from two
// coroutines; the slow ones read in small pieces with pauses, so every
// writer along the way (client, proxy, echo server) waits for the next to
// read; aborting clients close mid-stream, and the proxy ends their
// sessions on the error (shutdown wakes the other direction's pump). It
// prints a deterministic summary.
//
// The output of every build must equal the plain one: libcacs compiled from
// its sources with stock clang -O0, no cacs flags.
// RUN: %stock_clang -O0 -I%cacs_include %s $(%cacs_rt_objs --io %stock_clang -O0 -I%cacs_include) -lpthread -o %tref
// RUN: %tref > %t.ref && FileCheck %s < %t.ref
// RUN: %clang -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t0 && %t0 | diff %t.ref -
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t2 && %t2 | diff %t.ref -
// RUN: %clang -O3 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t3 && %t3 | diff %t.ref -
// RUN: %clang -O2 -flto -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %tl && %tl | diff %t.ref -
// RUN: printf 'fun:px_*\nfun:echo_*\nfun:cl_*\n' > %t.list
// RUN: %clang -O2 -fpreserve-none-list=%t.list -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %tp && %tp | diff %t.ref -
// RUN: %if llvm-22 %{ %clang -O2 -fauto-preserve-none -fpreserve-none-callee-saved=none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %tn && %tn | diff %t.ref - %}
// RUN: %if gcc %{ gcc -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %tg && %tg | diff %t.ref - %}
// AArch64, ASan and valgrind: app-proxy-aarch64.c, app-proxy-tools.test.
//
// CHECK: clients: 12 echoed in full ({{[0-9]+}} bytes, checksums match), 3 aborted
// CHECK-NEXT: proxy: 15 sessions, 4 upstream connects timed out, 3 ended by an error
// CHECK-NEXT: echo server: 15 connections
// CHECK-NEXT: PASS

#include "Inputs/io-test.h"
#include "cacs/sync.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum {
  NFULL = 12, // clients that send and get back everything
  NABORT = 3, // clients that close mid-stream
  NSLOW = 4,  // of the full ones, those that read slowly
  NBLACK = 4, // sessions that first try the upstream that never accepts
  PAYLOAD = 200 * 1000,
  IO_US = 20 * 1000 * 1000,
  CONNECT_US = 100 * 1000,
};

static struct sockaddr_in proxy_addr, echo_addr, black_addr;

// --- the echo server -------------------------------------------------------

static size_t echo_conns;

static void echo_conn_main(void *arg) {
  int fd = (int)(intptr_t)arg;
  char buf[4096];
  ssize_t n;
  while ((n = cacs_read(fd, buf, sizeof buf, IO_US)) > 0)
    if (cacs_write_all(fd, buf, (size_t)n, IO_US) < 0)
      break;
  shutdown(fd, SHUT_WR); // end of file after the last byte echoed
  cacs_close(fd);
}

static void echo_accept_main(void *arg) {
  int lfd = (int)(intptr_t)arg;
  int fd;
  while ((fd = cacs_accept(lfd, NULL, NULL, CACS_FOREVER)) >= 0) {
    echo_conns++;
    cacs_detach(cacs_create(echo_conn_main, (void *)(intptr_t)fd, 0));
  }
  EXPECT(errno == ECANCELED);
}

// --- the proxy ---------------------------------------------------------------

static size_t sessions, connect_timeouts, session_errors;
static cacs_waitgroup open_sessions = CACS_WAITGROUP_INIT;

struct pump {
  int from, to;
  int failed;
};

// Copy until end of file, then half-close the destination; on an error
// shut both sockets down, which ends the other direction's pump too.
static void px_pump_main(void *arg) {
  struct pump *p = arg;
  char buf[8192];
  for (;;) {
    ssize_t n = cacs_read(p->from, buf, sizeof buf, IO_US);
    if (n == 0) {
      shutdown(p->to, SHUT_WR);
      return;
    }
    if (n < 0 || cacs_write_all(p->to, buf, (size_t)n, IO_US) < 0)
      break;
  }
  p->failed = 1;
  shutdown(p->from, SHUT_RDWR);
  shutdown(p->to, SHUT_RDWR);
}

static void px_session_main(void *arg) {
  int client = (int)(intptr_t)arg;
  int small = 8192; // backpressure: a slow client soon makes writes wait
  setsockopt(client, SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
  size_t id = sessions++;
  int up = -1;
  if (id % 4 == 1) { // the first upstream of these never accepts
    up = connect_loopback(&black_addr, CONNECT_US);
    EXPECT(up < 0 && errno == ETIMEDOUT);
    connect_timeouts += up < 0 && errno == ETIMEDOUT;
  }
  up = connect_loopback(&echo_addr, IO_US);
  EXPECT(up >= 0);
  struct pump down = {up, client, 0}, upward = {client, up, 0};
  cacs_coro *a = cacs_create(px_pump_main, &upward, 0);
  cacs_coro *b = cacs_create(px_pump_main, &down, 0);
  cacs_join(a);
  cacs_join(b);
  session_errors += upward.failed || down.failed;
  cacs_close(up);
  cacs_close(client);
  cacs_waitgroup_done(&open_sessions);
}

static void px_accept_main(void *arg) {
  int lfd = (int)(intptr_t)arg;
  int fd;
  while ((fd = cacs_accept(lfd, NULL, NULL, CACS_FOREVER)) >= 0) {
    cacs_waitgroup_add(&open_sessions, 1);
    cacs_detach(cacs_create(px_session_main, (void *)(intptr_t)fd, 0));
  }
  EXPECT(errno == ECANCELED);
}

// --- the clients -------------------------------------------------------------

static size_t full_ok, aborted, bytes_back;
static cacs_waitgroup clients = CACS_WAITGROUP_INIT;

static unsigned char cl_byte(int id, size_t i) {
  return (unsigned char)((i * 131 + (size_t)id * 7 + (i >> 9)) & 0xff);
}

struct client {
  int id, fd;
  size_t limit; // bytes to send
};

static void cl_writer_main(void *arg) {
  struct client *c = arg;
  unsigned char buf[5000];
  for (size_t off = 0; off < c->limit;) {
    size_t n = c->limit - off < sizeof buf ? c->limit - off : sizeof buf;
    for (size_t i = 0; i < n; i++)
      buf[i] = cl_byte(c->id, off + i);
    EXPECT(cacs_write_all(c->fd, buf, n, IO_US) == (ssize_t)n);
    off += n;
  }
  shutdown(c->fd, SHUT_WR);
}

static void cl_main(void *arg) {
  int id = (int)(intptr_t)arg;
  int slow = id < NSLOW;
  struct client c = {id, socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0),
                     PAYLOAD};
  int small = 4096; // a small window: the proxy's writes to it wait
  if (slow)
    setsockopt(c.fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
  EXPECT(cacs_connect(c.fd, (struct sockaddr *)&proxy_addr, sizeof proxy_addr,
                      IO_US) == 0);
  if (id >= NFULL) { // abort: half the payload, then close unread
    c.limit = PAYLOAD / 2;
    cl_writer_main(&c);
    cacs_close(c.fd);
    aborted++;
    cacs_waitgroup_done(&clients);
    return;
  }
  cacs_coro *w = cacs_create(cl_writer_main, &c, 0);
  size_t got = 0, bad = 0;
  unsigned char buf[4096];
  ssize_t n;
  while ((n = cacs_read(c.fd, buf, slow ? 512 : sizeof buf, IO_US)) > 0) {
    for (ssize_t i = 0; i < n; i++)
      bad += buf[i] != cl_byte(id, got + (size_t)i);
    got += (size_t)n;
    if (slow && got % 4096 == 0)
      cacs_sleep(200);
  }
  EXPECT(n == 0 && got == PAYLOAD && bad == 0);
  cacs_join(w);
  cacs_close(c.fd);
  full_ok += n == 0 && got == PAYLOAD && bad == 0;
  bytes_back += got;
  cacs_waitgroup_done(&clients);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  watchdog(120);
  int elfd = listen_loopback(64, &echo_addr),
      plfd = listen_loopback(64, &proxy_addr);
  // A listener whose accept queue is full: later connects hang in SYN_SENT.
  int blfd = listen_loopback(0, &black_addr), fillers[2];
  for (int i = 0; i < 2; i++) {
    fillers[i] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    connect(fillers[i], (struct sockaddr *)&black_addr, sizeof black_addr);
  }
  cacs_sleep(10 * 1000);
  cacs_coro *echo = cacs_create(echo_accept_main, (void *)(intptr_t)elfd, 0);
  cacs_coro *proxy = cacs_create(px_accept_main, (void *)(intptr_t)plfd, 0);
  for (int i = 0; i < NFULL + NABORT; i++) {
    cacs_waitgroup_add(&clients, 1);
    cacs_detach(cacs_create(cl_main, (void *)(intptr_t)i, 0));
  }
  EXPECT(cacs_waitgroup_wait(&clients, 60 * 1000 * 1000) == 0);
  EXPECT(cacs_waitgroup_wait(&open_sessions, 60 * 1000 * 1000) == 0);
  cacs_close(plfd);
  cacs_join(proxy);
  cacs_close(elfd);
  cacs_join(echo);
  for (int i = 0; i < 2; i++)
    close(fillers[i]);
  close(blfd);
  cacs_sleep(1000); // the detached echo sessions finish
  EXPECT(cacs_count() == 0);
  printf("clients: %zu echoed in full (%zu bytes, checksums match), %zu "
         "aborted\n",
         full_ok, bytes_back, aborted);
  printf("proxy: %zu sessions, %zu upstream connects timed out, %zu ended by "
         "an error\n",
         sessions, connect_timeouts, session_errors);
  printf("echo server: %zu connections\n", echo_conns);
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
