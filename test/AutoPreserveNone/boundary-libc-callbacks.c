// Functions that cacs makes preserve_none (APN: they call the preserve_none
// apn_switch; a list naming every function) called back by the C library
// and the kernel through their C entries, or calling into it: a qsort
// comparator, a constructor, an atexit handler, a signal handler, a thread
// start routine, a dl_iterate_phdr callback; longjmp and siglongjmp out of
// them, vfork in them; arguments past the registers with __int128, long
// double, _Float16, an sret struct and an AArch64 HFA (on x86-64 LLVM 22
// i128 stays C: Hazards/int128-register-pairs.c). Every build prints
// what stock clang -O0 prints, on x86-64 and AArch64.
//
// RUN: rm -rf %t && mkdir %t
// RUN: echo 'fun:*' > %t/list
// RUN: %clang -O2 -fauto-preserve-none -Rpass=auto-preserve-none -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK
// RUN: %stock_clang -O0 %s -o %t/ref -lpthread -ldl && %t/ref > %t/expected
// RUN: for M in "-O0 -fauto-preserve-none" "-O2 -fauto-preserve-none" "-O3 -fauto-preserve-none" "-O2 -flto -fauto-preserve-none" "-O2 -flto=thin -fauto-preserve-none" "-O0 -fpreserve-none-list=%t/list" "-O2 -fpreserve-none-list=%t/list" "-O2 -flto -fauto-preserve-none -fpreserve-none-list=%t/list"; do \
// RUN:   %clang $M %s -o %t/prog -lpthread -ldl && %t/prog > %t/out && diff %t/expected %t/out || exit 1; \
// RUN: done
// RUN: %if qemu-aarch64 %{ %stock_clang %aarch64_flags -O0 %s -o %t/ref-a64 -lpthread -ldl && %run_aarch64 %t/ref-a64 > %t/expected-a64 && \
// RUN:   for M in "-O0 -fauto-preserve-none" "-O2 -fauto-preserve-none" "-O2 -flto -fauto-preserve-none" "-O2 -fpreserve-none-list=%t/list"; do \
// RUN:   %clang %aarch64_flags $M %s -o %t/a64 -lpthread -ldl && %run_aarch64 %t/a64 > %t/a64.out && diff %t/expected-a64 %t/a64.out || exit 1; \
// RUN: done %}
// REMARK-DAG: made 'many' preserve_none
// REMARK-DAG: made 'cmp_inner' preserve_none
// REMARK-DAG: made 'use_vfork' preserve_none
// REMARK-DAG: made 'use_sigsetjmp' preserve_none
// REMARK-DAG: made 'ld' preserve_none
// REMARK-DAG: made 'f16' preserve_none
// REMARK-DAG: made 'mkhfa' preserve_none
#define _GNU_SOURCE
#include <link.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#define APN_DEFINE_SWITCH
#include "Inputs/clobber.h"
#define NI __attribute__((noinline))
static volatile long sink;
static volatile long one = 1;
#define K(n) ((n) * one)
static long g_ctor;
NI static long many(long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8, long a9, long a10, long a11, long a12, long a13, long a14, long a15, long a16, long a17, long a18, long a19, long a20, long a21, long a22, long a23, long a24, long a25) { apn_switch(1);
  return a1 + 2*a2 + 3*a3 + 4*a4 + 5*a5 + 6*a6 + 7*a7 + 8*a8 + 9*a9 + 10*a10 + 11*a11 + 12*a12 + 13*a13 + 14*a14 + 15*a15 + 16*a16 + 17*a17 + 18*a18 + 19*a19 + 20*a20 + 21*a21 + 22*a22 + 23*a23 + 24*a24 + 25*a25;
}
NI static long m(long s) { apn_switch(1); return many(s, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25); }
__attribute__((constructor)) static void ctor(void) { g_ctor = m(K(7)); }
NI static int cmp_inner(long a, long b, long k1, long k2, long k3, long k4, long k5, long k6, long k7, long k8, long k9, long k10) { apn_switch(1); return (a ^ (k1+k2+k3+k4+k5+k6+k7+k8+k9+k10)) < (b ^ 55) ? -1 : (a == b ? 0 : 1); }
static int cmp(const void *x, const void *y) { apn_switch(2); return cmp_inner(*(const long *)x, *(const long *)y, K(1), K(2), K(3), K(4), K(5), K(6), K(7), K(8), K(9), K(10)); }
static void at_exit(void) { apn_switch(2); printf("atexit %ld\n", m(K(3))); fflush(stdout); }
static volatile sig_atomic_t sig_seen;
static void handler(int s) { apn_switch(2); sig_seen = (sig_atomic_t)(m(s) & 0xffff); }
static void *thr(void *p) { long v = (long)p; return (void *)m(v); }
static int phdr_cb(struct dl_phdr_info *info, size_t size, void *data) { apn_switch(2); (void)info; (void)size; *(long *)data += m(K(1)) & 1; return 0; }
NI static __int128 i128(long a, long b, long c, long d, long e, long f, long g, long h, long i, long j, long k, __int128 x, __int128 y, long z) { apn_switch(1);
  return (a + b + c + d + e + f + g + h + i + j + k) * x + y * z;
}
NI static long double ld(long double a, double b, long double c, float d, long e, long double f, double g1, double g2, double g3, double g4, double g5, double g6, double g7, double g8, double g9, long double h) { apn_switch(1);
  return a * b + c * d + e + f + g1 + g2 * 2 + g3 * 3 + g4 * 4 + g5 * 5 + g6 * 6 + g7 * 7 + g8 * 8 + g9 * 9 + h;
}
NI static _Float16 f16(_Float16 a, _Float16 b, _Float16 c, _Float16 d, _Float16 e, _Float16 f, _Float16 g, _Float16 h, _Float16 i, _Float16 j, long k) { apn_switch(1);
  return a + b * c + d - e + f * g - h + i * j + (_Float16)k;
}
struct big { long v[9]; double d[3]; };
NI static struct big mkbig(long a, long b, long c, long d, long e, long f, long g, long h, long i, long j, long k, long l, double x) { apn_switch(1);
  struct big r; long in[] = {a, b, c, d, e, f, g, h, i};
  for (int n = 0; n < 9; n++) r.v[n] = in[n] * (j + k + l);
  r.d[0] = x; r.d[1] = x * 2; r.d[2] = x * 3; return r;
}
struct hfa { double a, b, c, d; };
NI static struct hfa mkhfa(double a, double b, double c, double d, double e, double f, double g, double h, double i, long k) { apn_switch(1); struct hfa r = {a + e, b + f, c + g + i, d + h + k}; return r; }
static jmp_buf jb; static sigjmp_buf sjb;
NI static void jump_deep(long a, long b, long c, long d, long e, long f, long g, long h, long i, long j, long k, long l) { apn_switch(1); if (a + l > 0) longjmp(jb, (int)(a + b + c + d + e + f + g + h + i + j + k + l)); }
NI static void sjump_deep(long a, long b, long c, long d, long e, long f, long g, long h, long i, long j, long k, long l) { apn_switch(1); if (a + l > 0) siglongjmp(sjb, (int)(a * b + c + d + e + f + g + h + i + j + k + l)); }
NI static long use_setjmp(long s) { apn_switch(1);
  volatile long keep = s * 3; long r = setjmp(jb);
  if (r == K(0)) { jump_deep(s, K(2), K(3), K(4), K(5), K(6), K(7), K(8), K(9), K(10), K(11), K(12)); return -1; }
  return r + keep + m(s);
}
NI static long use_sigsetjmp(long s) { apn_switch(1);
  volatile long keep = s * 5; long r = sigsetjmp(sjb, 1);
  if (r == K(0)) { sjump_deep(s, K(2), K(3), K(4), K(5), K(6), K(7), K(8), K(9), K(10), K(11), K(12)); return -1; }
  return r + keep + m(s);
}
NI static long use_vfork(long s) { apn_switch(1);
  long before = m(s); pid_t p = vfork();
  if (p == K(0)) _exit((int)(many(s, K(1), K(1), K(1), K(1), K(1), K(1), K(1), K(1), K(1), K(1), K(1), K(1), K(1), K(1), K(1), K(1), K(1), K(1), K(1), K(1), K(1), K(1), K(1), K(1)) & 0x7f));
  int st; waitpid(p, &st, 0);
  return before + WEXITSTATUS(st) + m(s + K(1));
}
int main(int argc, char **argv) {
  (void)argv; long s = argc;
  printf("ctor %ld\n", g_ctor);
  long arr[] = {9, 4, 100, 3, 77, 1, 55, s};
  qsort(arr, 8, sizeof(long), cmp);
  for (int i = 0; i < 8; i++) printf("%ld ", arr[i]);
  printf("\n");
  atexit(at_exit);
  signal(SIGUSR1, handler); raise(SIGUSR1); printf("sig %d\n", (int)sig_seen);
  pthread_t t; void *res; pthread_create(&t, 0, thr, (void *)(s + 4)); pthread_join(t, &res); printf("thr %ld\n", (long)res);
  long acc = 0; dl_iterate_phdr(phdr_cb, &acc); printf("phdr %d\n", acc > 0);
  __int128 w = i128(s, K(2), K(3), K(4), K(5), K(6), K(7), K(8), K(9), K(10), K(11), ((__int128)1 << K(70)) + K(3), (__int128)s << K(65), K(9));
  printf("i128 %llx %llx\n", (unsigned long long)(w >> 64), (unsigned long long)w);
  printf("ld %.6Lf\n", ld(K(1.5L), K(2), K(3.25L), K(4), s, K(6.125L), K(1), K(2), K(3), K(4), K(5), K(6), K(7), K(8), K(9), K(10.5L)));
  printf("f16 %.3f\n", (double)f16(K(1), K(2), K(3), K(4), K(5), K(6), K(7), K(8), K(9), K(0.5), s));
  struct big bg = mkbig(s, K(2), K(3), K(4), K(5), K(6), K(7), K(8), K(9), K(10), K(11), K(12), K(1.25));
  printf("big %ld %ld %.2f\n", bg.v[0], bg.v[8], bg.d[2]);
  struct hfa hf = mkhfa(K(1), K(2), K(3), K(4), K(5), K(6), K(7), K(8), K(9), s); printf("hfa %.1f %.1f %.1f %.1f\n", hf.a, hf.b, hf.c, hf.d);
  printf("setjmp %ld\n", use_setjmp(s));
  printf("sigsetjmp %ld\n", use_sigsetjmp(s));
  printf("vfork %ld\n", use_vfork(s));
  return 0;
}
