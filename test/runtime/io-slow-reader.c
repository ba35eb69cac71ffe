// A slow reader: a writer pushes 4 MiB through a small socket buffer while
// its reader takes 16 KiB every millisecond, so the writer keeps waiting
// for EPOLLOUT; every byte arrives in order, over a socketpair (write_all)
// and over loopback TCP (writev), while a third coroutine keeps running.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: env CACS_IO_POLL_MAX=0 %t2 | FileCheck %s
// RUN: %clang -O1 -fsanitize=address -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang --target=aarch64-linux-gnu -O2 -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -o %tarm && %run_aarch64 %tarm | FileCheck %s
//
// CHECK: socketpair: 4194304 bytes in order, the writer waited ok
// CHECK-NEXT: tcp: 4194304 bytes in order, the writer waited ok
// CHECK-NEXT: descriptors: none leaked
// CHECK-NEXT: PASS

#include "Inputs/io-test.h"

enum { TOTAL = 4 << 20, CHUNK = 16 << 10 };

static int wfd, rfd, use_writev;
static long long writer_done, reader_done;
static volatile int ticking;
static long ticks;

static unsigned char byte_at(size_t i) {
  return (unsigned char)(i * 131 + (i >> 12));
}

static void writer(void *arg) {
  (void)arg;
  static unsigned char buf[TOTAL];
  for (size_t i = 0; i < TOTAL; i++)
    buf[i] = byte_at(i);
  if (use_writev) {
    size_t done = 0;
    while (done < TOTAL) {
      size_t rest = TOTAL - done, half = rest / 2;
      struct iovec iov[2] = {{buf + done, half},
                             {buf + done + half, rest - half}};
      ssize_t k = cacs_writev(wfd, iov, 2, 20 * 1000000);
      EXPECT(k > 0);
      if (k <= 0)
        break;
      done += (size_t)k;
    }
  } else {
    EXPECT(cacs_write_all(wfd, buf, TOTAL, 20 * 1000000) == TOTAL);
  }
  writer_done = now_us();
  EXPECT(cacs_close(wfd) == 0);
}

static size_t reader_got;
static void reader(void *arg) {
  (void)arg;
  static unsigned char buf[CHUNK];
  size_t got = 0;
  int bad = 0;
  for (;;) {
    ssize_t k = cacs_read(rfd, buf, sizeof buf, 20 * 1000000);
    EXPECT(k >= 0);
    if (k <= 0)
      break;
    for (ssize_t i = 0; i < k; i++)
      bad += buf[i] != byte_at(got + (size_t)i);
    got += (size_t)k;
    cacs_sleep(1000);
  }
  EXPECT(bad == 0);
  reader_got = got;
  reader_done = now_us();
  EXPECT(cacs_close(rfd) == 0);
}

static void ticker(void *arg) {
  (void)arg;
  while (ticking) {
    ticks++;
    cacs_sleep(500);
  }
}

static void run(const char *what) {
  int sz = 16 << 10;
  EXPECT(setsockopt(wfd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof sz) == 0);
  EXPECT(setsockopt(rfd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz) == 0);
  ticking = 1;
  ticks = 0;
  long long t0 = now_us();
  cacs_coro *t = cacs_create(ticker, NULL, 0);
  cacs_coro *w = cacs_create(writer, NULL, 0);
  cacs_coro *r = cacs_create(reader, NULL, 0);
  cacs_join(w);
  cacs_join(r);
  ticking = 0;
  cacs_join(t);
  // The writer could not finish before the reader had taken most of the
  // data: at most what the buffers hold was ahead of it (reads are at most
  // 16 KiB per ms, so 4 MiB take 256 ms or more).
  EXPECT(writer_done - t0 >= 200000);
  EXPECT(reader_got == TOTAL);
  EXPECT(ticks > 10); // the others ran while the writer waited
  printf("%s: %zu bytes in order, the writer waited %s\n", what, reader_got,
         failures ? "FAILED" : "ok");
}

int main(void) {
  int fds = test_begin(120);
  int sv[2];
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
  wfd = sv[0], rfd = sv[1], use_writev = 0;
  run("socketpair");
  struct sockaddr_in a;
  int l = listen_loopback(4, &a);
  EXPECT(l >= 0);
  wfd = connect_loopback(&a, 2000000);
  rfd = cacs_accept(l, NULL, NULL, 2000000);
  EXPECT(wfd >= 0 && rfd >= 0);
  cacs_close(l);
  use_writev = 1;
  run("tcp");
  return test_end(fds);
}
