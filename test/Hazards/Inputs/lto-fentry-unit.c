// Compiled with -pg -mfentry by Hazards/lto-mixed-fentry.c: f (11 integer
// arguments, global: only the full-LTO link may infect it) calls a
// preserve_none function, and __fentry__ clobbers r10 and r11, as the
// x86-64 ABI allows.
#ifndef REFERENCE
#include "fentry-r11.h"

__attribute__((preserve_none))
#endif
__attribute__((noinline)) void
seed(void) {
  __asm__ volatile("");
}

__attribute__((noinline)) long f(long a1, long a2, long a3, long a4, long a5,
                                 long a6, long a7, long a8, long a9, long a10,
                                 long a11) {
  seed();
  return a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 + 8 * a8 +
         9 * a9 + 10 * a10 + 11 * a11;
}
