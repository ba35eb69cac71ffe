// Echo through the I/O module with many coroutines at once: 100 socketpairs
// (read/write_all, readv/writev, recv/send each on a third of them) and 200
// loopback TCP connections to one acceptor, every message checked byte by
// byte; no descriptor leaks.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: env CACS_IO_POLL_MAX=0 %t2 | FileCheck %s
// RUN: %clang -O1 -fsanitize=address -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang --target=aarch64-linux-gnu -O2 -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -o %tarm && %run_aarch64 %tarm | FileCheck %s
//
// CHECK: socketpair: 100 pairs x 40 messages echoed ok
// CHECK-NEXT: tcp: 200 connections x 20 messages echoed ok
// CHECK-NEXT: descriptors: none leaked
// CHECK-NEXT: PASS

#include "Inputs/io-test.h"

#include <arpa/inet.h>

enum { NPAIRS = 100, NMSG = 40, NCONN = 200, NMSG_TCP = 20, MAXMSG = 6000 };

static void fill(unsigned char *buf, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++)
    buf[i] = (unsigned char)(seed * 31 + i * 7);
}

// Read exactly n bytes (the echo may come back in pieces); 0 on EOF.
static ssize_t read_full(int fd, unsigned char *buf, size_t n, int how) {
  size_t got = 0;
  while (got < n) {
    ssize_t k;
    if (how == 1) {
      size_t half = (n - got) / 2;
      struct iovec iov[2] = {{buf + got, half},
                             {buf + got + half, n - got - half}};
      k = cacs_readv(fd, iov, 2, 5 * 1000 * 1000);
    } else if (how == 2) {
      k = cacs_recv(fd, buf + got, n - got, 0, 5 * 1000 * 1000);
    } else {
      k = cacs_read(fd, buf + got, n - got, 5 * 1000 * 1000);
    }
    if (k <= 0)
      return k;
    got += (size_t)k;
  }
  return (ssize_t)got;
}

static ssize_t write_msg(int fd, const unsigned char *buf, size_t n, int how) {
  if (how == 1) {
    struct iovec iov[3] = {{(void *)buf, n / 3},
                           {(void *)(buf + n / 3), n / 3},
                           {(void *)(buf + 2 * (n / 3)), n - 2 * (n / 3)}};
    ssize_t k = cacs_writev(fd, iov, 3, 5 * 1000 * 1000);
    // A short writev is legal; finish with write_all.
    if (k >= 0 && (size_t)k < n &&
        cacs_write_all(fd, buf + k, n - (size_t)k, 5 * 1000 * 1000) < 0)
      return -1;
    return k < 0 ? -1 : (ssize_t)n;
  }
  if (how == 2) {
    size_t done = 0;
    while (done < n) {
      ssize_t k = cacs_send(fd, buf + done, n - done, 0, 5 * 1000 * 1000);
      if (k < 0)
        return -1;
      done += (size_t)k;
    }
    return (ssize_t)n;
  }
  return cacs_write_all(fd, buf, n, 5 * 1000 * 1000);
}

// Echo everything until EOF, then close.
struct echo_arg {
  int fd, how;
};
static void echo_entry(void *p) {
  struct echo_arg *a = (struct echo_arg *)p;
  unsigned char buf[4096];
  for (;;) {
    ssize_t k = a->how == 2 ? cacs_recv(a->fd, buf, sizeof buf, 0, CACS_FOREVER)
                            : cacs_read(a->fd, buf, sizeof buf, CACS_FOREVER);
    if (k <= 0) {
      EXPECT(k == 0);
      break;
    }
    EXPECT(write_msg(a->fd, buf, (size_t)k, a->how) == k);
  }
  EXPECT(cacs_close(a->fd) == 0);
}

struct client_arg {
  int fd, how, nmsg, id;
  int ok;
};
static void client_entry(void *p) {
  struct client_arg *a = (struct client_arg *)p;
  static unsigned char out[NPAIRS > NCONN ? NPAIRS : NCONN][MAXMSG];
  unsigned char in[MAXMSG];
  int ok = 1;
  for (int m = 0; m < a->nmsg; m++) {
    size_t n = 1 + (size_t)((a->id * 977 + m * 1319) % MAXMSG);
    fill(out[a->id], n, (unsigned)(a->id * 1000 + m));
    if (write_msg(a->fd, out[a->id], n, a->how) != (ssize_t)n ||
        read_full(a->fd, in, n, a->how) != (ssize_t)n ||
        memcmp(in, out[a->id], n) != 0) {
      ok = 0;
      break;
    }
  }
  EXPECT(ok);
  a->ok = ok;
  EXPECT(cacs_close(a->fd) == 0); // the echo side reads EOF
}

static void test_socketpairs(void) {
  static struct echo_arg ea[NPAIRS];
  static struct client_arg ca[NPAIRS];
  cacs_coro *co[2 * NPAIRS];
  for (int i = 0; i < NPAIRS; i++) {
    int sv[2];
    EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
    ea[i] = (struct echo_arg){sv[1], i % 3};
    ca[i] = (struct client_arg){sv[0], i % 3, NMSG, i, 0};
    co[2 * i] = cacs_create(echo_entry, &ea[i], 0);
    co[2 * i + 1] = cacs_create(client_entry, &ca[i], 0);
  }
  int ok = 0;
  for (int i = 0; i < 2 * NPAIRS; i++)
    cacs_join(co[i]);
  for (int i = 0; i < NPAIRS; i++)
    ok += ca[i].ok;
  printf("socketpair: %d pairs x %d messages echoed %s\n", ok, NMSG,
         failures ? "FAILED" : "ok");
}

static int listener;
static struct sockaddr_in server_addr;
static void acceptor_entry(void *p) {
  (void)p;
  static struct echo_arg ea[NCONN];
  static cacs_coro *handlers[NCONN];
  for (int i = 0; i < NCONN; i++) {
    struct sockaddr_in peer;
    socklen_t len = sizeof peer;
    int fd =
        cacs_accept(listener, (struct sockaddr *)&peer, &len, 10 * 1000 * 1000);
    EXPECT(fd >= 0);
    if (fd < 0)
      break;
    EXPECT(peer.sin_addr.s_addr == htonl(INADDR_LOOPBACK));
    ea[i] = (struct echo_arg){fd, i % 3};
    handlers[i] = cacs_create(echo_entry, &ea[i], 0);
  }
  for (int i = 0; i < NCONN; i++)
    if (handlers[i])
      cacs_join(handlers[i]);
}

static void tcp_client_entry(void *p) {
  struct client_arg *a = (struct client_arg *)p;
  a->fd = connect_loopback(&server_addr, 10 * 1000 * 1000);
  EXPECT(a->fd >= 0);
  if (a->fd >= 0)
    client_entry(a);
}

static void test_tcp(void) {
  listener = listen_loopback(NCONN, &server_addr);
  EXPECT(listener >= 0);
  static struct client_arg ca[NCONN];
  cacs_coro *acc = cacs_create(acceptor_entry, NULL, 0);
  cacs_coro *co[NCONN];
  for (int i = 0; i < NCONN; i++) {
    ca[i] = (struct client_arg){-1, (i + 1) % 3, NMSG_TCP, i, 0};
    co[i] = cacs_create(tcp_client_entry, &ca[i], 0);
  }
  for (int i = 0; i < NCONN; i++)
    cacs_join(co[i]);
  cacs_join(acc);
  EXPECT(cacs_close(listener) == 0);
  int ok = 0;
  for (int i = 0; i < NCONN; i++)
    ok += ca[i].ok;
  printf("tcp: %d connections x %d messages echoed %s\n", ok, NMSG_TCP,
         failures ? "FAILED" : "ok");
}

int main(void) {
  int fds = test_begin(120);
  test_socketpairs();
  test_tcp();
  return test_end(fds);
}
