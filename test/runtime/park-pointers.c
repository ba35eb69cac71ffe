// The waiting calls reached through pointers and from frames addressed
// through a base pointer, with many values live across them. cacs/coro.h
// and cacs/io.h bind a call per compiler to a preserve_none entry (_pn or
// _pn_bp) or to the default-convention symbol; a pointer declared with the
// name's type (__typeof__) takes the default-convention symbol (see
// park-address.c), and calls through it must be as safe as the direct
// ones: every callee-saved register live (a trasher coroutine fills them
// with garbage before each switch back), over-aligned locals and a dynamic
// allocation (a base pointer in rbx / x19), calls of cacs_sleep,
// cacs_park_timeout, cacs_park, cacs_join and cacs_read, direct and
// through pointers. Waits that time out or are woken early are fine; what
// the frames compute must equal the result of the stock clang -O0 build
// without the waits (-DREF).
//
// RUN: %stock_clang -O0 -DREF -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %tref && %tref > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: %clang -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t0 && %t0 | diff %t.ref -
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t2 && %t2 | diff %t.ref -
// RUN: %clang -O3 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ta && %ta | diff %t.ref -
// RUN: %clang -O2 -fauto-preserve-none -flto -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %tl && %tl | diff %t.ref -
// RUN: %clang -O2 -fauto-preserve-none -flto=thin -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %tt && %tt | diff %t.ref -
// RUN: %clang -O2 -DOPTNONE -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %tn && %tn | diff %t.ref -
// RUN: %clang -O2 -DCACS_YIELD_FULL_SAVE=1 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %tf && %tf | diff %t.ref -
// RUN: %stock_clang -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ts0 && %ts0 | diff %t.ref -
// RUN: %stock_clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ts2 && %ts2 | diff %t.ref -
// RUN: %if gcc %{ gcc -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %tg && %tg | diff %t.ref - %}
// The test fails where a call loses the base pointer: stock clang 19 made
// to bind to the plain entries.
// RUN: %stock_clang -O2 -DCACS_YIELD_SAVE_BP=0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %tu
// RUN: timeout 20 %tu > %tu.out || true
// RUN: %if llvm-19 %{ not diff %t.ref %tu.out %}
//
// CHECK: sum {{[0-9a-f]+}}
// CHECK-NEXT: PASS

#include "cacs/coro.h"
#include "cacs/io.h"

#include <alloca.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "Inputs/io-test.h"

#define NW 4
#define ROUNDS 60
#define NOPS 9

static int rfd[NW], wfd[NW];
static cacs_coro *workers[NW];
static volatile int stop;
static volatile int dyn = 40;
static int wait_errors;

// Pointers of the calls' own types, read back at each call (volatile): the
// calls through them are indirect.
static __typeof__(cacs_sleep) *volatile sleep_p = cacs_sleep;
static __typeof__(cacs_read) *volatile read_p = cacs_read;
static __typeof__(cacs_park_timeout) *volatile pt_p = cacs_park_timeout;
static __typeof__(cacs_park) *volatile park_p = cacs_park;
static __typeof__(cacs_join) *volatile join_p = cacs_join;

static void child(void *a) {
  (void)a;
  cacs_sleep(0);
  cacs_sleep(0);
}

// Fills the callee-saved registers with garbage right before each switch
// back (its compiler saved its own in the prologue, and cacs_yield needs
// none of them): a register a wait does not restore shows.
static void trasher(void *a) {
  (void)a;
  while (!stop) {
#if defined(__x86_64__)
    __asm__ volatile("movabsq $0x5a5a5a5aa5a5a5a5, %%rbx\n\t"
                     "movq %%rbx, %%r12\n\tmovq %%rbx, %%r13\n\t"
                     "movq %%rbx, %%r14\n\tmovq %%rbx, %%r15\n\t"
                     "movq %%rbx, %%xmm0\n\t" ::
                         : "rbx", "r12", "r13", "r14", "r15", "xmm0");
#else
    __asm__ volatile("movz x19, #0x5a5a\n\t"
                     "mov x20, x19\n\tmov x21, x19\n\tmov x22, x19\n\t"
                     "mov x23, x19\n\tmov x24, x19\n\tmov x25, x19\n\t"
                     "mov x26, x19\n\tmov x27, x19\n\tmov x28, x19\n\t"
                     "fmov d8, x19\n\tfmov d9, x19\n\tfmov d10, x19\n\t"
                     "fmov d11, x19\n\tfmov d12, x19\n\tfmov d13, x19\n\t"
                     "fmov d14, x19\n\tfmov d15, x19\n\t" ::
                         : "x19", "x20", "x21", "x22", "x23", "x24", "x25",
                           "x26", "x27", "x28", "d8", "d9", "d10", "d11", "d12",
                           "d13", "d14", "d15");
#endif
    cacs_yield();
  }
}

// Feeds one byte to each worker's socket now and then, and wakes parkers.
static void feeder(void *a) {
  (void)a;
  while (!stop) {
    for (int i = 0; i < NW; ++i) {
      if (write(wfd[i], "x", 1) != 1)
        perror("write");
      cacs_wake(workers[i]);
    }
    cacs_sleep(200);
  }
}

#ifdef REF
#define WAIT(k) ((void)0)
#else
#define WAIT(k) (wait_errors += do_wait(id, k))
#endif

// 0 when the call returned what it may return here (a sleep or a timed
// park may end early: the feeder wakes every worker).
static inline int sleep_ok(int r) {
  return r == 0 || (r == -1 && errno == EINTR);
}
static inline int park_ok(int r) {
  return r == 0 || (r == -1 && errno == ETIMEDOUT);
}

// Inlined into the working frames, so that the calls are made from them.
static inline __attribute__((always_inline)) int do_wait(int id, int k) {
  char buf[64];
  switch (k % NOPS) {
  case 0:
    return !sleep_ok(cacs_sleep(0));
  case 1:
    return !sleep_ok(cacs_sleep(100));
  case 2:
    return !park_ok(cacs_park_timeout(50));
  case 3:
    cacs_park();
    return 0;
  case 4:
    return cacs_read(rfd[id], buf, sizeof buf, 10000000) <= 0;
  case 5:
    return cacs_join(cacs_create(child, 0, 0)) != 0;
  case 6:
    return !sleep_ok(sleep_p(10));
  case 7: {
    ssize_t n = read_p(rfd[id], buf, sizeof buf, 10000000);
    park_p();
    return n <= 0;
  }
  default: {
    cacs_coro *c = cacs_create(child, 0, 0);
    int r = !park_ok(pt_p(20));
    return r | (join_p(c) != 0);
  }
  }
}

// Ten integers and four doubles live across every wait, each depending on
// the others; INLINEWAIT may use the frame's own locals too.
#define BODY(INLINEWAIT)                                                       \
  uint64_t a0 = s * 3, a1 = s ^ 0x55, a2 = s + 7, a3 = s * 11, a4 = s - 1,     \
           a5 = s << 3, a6 = s >> 2, a7 = s | 9, a8 = s * 13, a9 = s + 99;     \
  double d0 = (double)s, d1 = 1.5, d2 = 2.25, d3 = 3.125;                      \
  for (int i = 0; i < ROUNDS; ++i) {                                           \
    INLINEWAIT;                                                                \
    a0 = a0 * 3 + a9 + (uint64_t)i;                                            \
    a1 ^= a0 >> 7;                                                             \
    a2 += a1 * 5;                                                              \
    a3 = a3 * 7 + a2;                                                          \
    a4 ^= a3 << 1;                                                             \
    a5 += a4;                                                                  \
    a6 = a6 * 17 + a5;                                                         \
    a7 ^= a6;                                                                  \
    a8 += a7 >> 3;                                                             \
    a9 = a9 * 5 + a8;                                                          \
    d0 = d0 * 0.5 + d3;                                                        \
    d1 += d0;                                                                  \
    d2 = d2 * 1.25 - d1 * 0.125;                                               \
    d3 += d2 * 0.0625;                                                         \
  }                                                                            \
  return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 +                     \
         (uint64_t)(d0 + d1 + d2 + d3);

#ifdef OPTNONE
#define ON __attribute__((optnone))
#else
#define ON
#endif
ON __attribute__((noinline)) static uint64_t work_plain(int id, uint64_t s) {
  BODY(WAIT(i + id))
}

// Realigned frame with a dynamic allocation: a base pointer.
ON __attribute__((noinline)) static uint64_t work_bp(int id, uint64_t s) {
  _Alignas(64) volatile uint64_t big[8];
  char *v = alloca(dyn);
  memset(v, id, dyn);
  for (int j = 0; j < 8; ++j)
    big[j] = s + (uint64_t)j;
  BODY(WAIT(i + id + 3); a1 += big[i & 7] + (uint64_t)v[i % dyn];
       big[(i + 1) & 7] = a0; v[i % dyn] ^= 1)
}

static uint64_t results[NW][2];

static void worker(void *a) {
  int id = (int)(intptr_t)a;
  results[id][0] = work_plain(id, 1000 + id);
  results[id][1] = work_bp(id, 2000 + id);
}

int main(void) {
  for (int i = 0; i < NW; ++i) {
    struct sockaddr_in sa;
    int l = listen_loopback(1, &sa);
    wfd[i] = socket(AF_INET, SOCK_STREAM, 0);
    if (l < 0 || connect(wfd[i], (struct sockaddr *)&sa, sizeof sa) != 0)
      return perror("connect"), 1;
    int one = 1;
    setsockopt(wfd[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    rfd[i] = accept(l, 0, 0);
    close(l);
  }
  cacs_coro *t = cacs_create(trasher, 0, 0);
  for (int i = 0; i < NW; ++i)
    workers[i] = cacs_create(worker, (void *)(intptr_t)i, 0);
  cacs_coro *f = cacs_create(feeder, 0, 0);
  for (int i = 0; i < NW; ++i)
    cacs_join(workers[i]);
  stop = 1;
  cacs_join(t);
  cacs_join(f);
  uint64_t sum = 0;
  for (int i = 0; i < NW; ++i)
    sum = sum * 31 + results[i][0] * 7 + results[i][1];
  printf("sum %llx\n", (unsigned long long)sum);
  printf("%s\n", wait_errors ? "FAIL: a waiting call failed" : "PASS");
  return 0;
}
