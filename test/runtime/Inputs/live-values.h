// Many values live across a switch, for the register-survival tests
// (switch-registers.c, yield-slow-registers.c): 28 integers, 32 doubles and,
// on x86-64, two long doubles (x87), each pinned in a register by an empty
// asm (computed before the switch, not recomputable after it).
//
//   LIVE_VALUES_DEFINE(s, d);        // before the switch, from seeds s, d
//   ... switch ...
//   LIVE_VALUES_CHECK(s2, e, check); // after it, from the seeds read again:
//                                    // check(what, index, ok) per value
//
// The comparisons are all made before the first call to check: a call would
// make the compiler spill caller-saved registers anyway and hide a bad
// clobber.

#ifndef CACS_TEST_LIVE_VALUES_H
#define CACS_TEST_LIVE_VALUES_H

#include <stdint.h>

#define LIVE_NI 28
#define LIVE_ND 32

#if defined(__x86_64__)
#define LIVE_FPREG "+x"
#else
#define LIVE_FPREG "+w"
#endif
#define LIVE_I(n)                                                              \
  uint64_t i##n = s_ * (2 * n + 1) + n;                                        \
  __asm__ volatile("" : "+r"(i##n));
#define LIVE_D(n)                                                              \
  double d##n = d_ * (n + 1) + 0.5 * n;                                        \
  __asm__ volatile("" : LIVE_FPREG(d##n));
#if defined(__x86_64__)
#define LIVE_X87                                                               \
  long double l0 = (long double)d_ * 3.0L, l1 = (long double)d_ * 7.0L;        \
  __asm__ volatile("" : "+t"(l0));                                             \
  __asm__ volatile("" : "+t"(l1));
#define LIVE_X87_OK(e)                                                         \
  ok_[LIVE_NI + LIVE_ND] = l0 == (long double)(e) * 3.0L;                     \
  ok_[LIVE_NI + LIVE_ND + 1] = l1 == (long double)(e) * 7.0L;
#else
#define LIVE_X87
#define LIVE_X87_OK(e) ok_[LIVE_NI + LIVE_ND] = ok_[LIVE_NI + LIVE_ND + 1] = 1;
#endif

#define LIVE_VALUES_DEFINE(s, d)                                               \
  uint64_t s_ = (s);                                                           \
  double d_ = (d);                                                             \
  LIVE_I(0) LIVE_I(1) LIVE_I(2) LIVE_I(3) LIVE_I(4) LIVE_I(5) LIVE_I(6)        \
  LIVE_I(7) LIVE_I(8) LIVE_I(9) LIVE_I(10) LIVE_I(11) LIVE_I(12) LIVE_I(13)    \
  LIVE_I(14) LIVE_I(15) LIVE_I(16) LIVE_I(17) LIVE_I(18) LIVE_I(19)            \
  LIVE_I(20) LIVE_I(21) LIVE_I(22) LIVE_I(23) LIVE_I(24) LIVE_I(25)            \
  LIVE_I(26) LIVE_I(27)                                                        \
  LIVE_D(0) LIVE_D(1) LIVE_D(2) LIVE_D(3) LIVE_D(4) LIVE_D(5) LIVE_D(6)        \
  LIVE_D(7) LIVE_D(8) LIVE_D(9) LIVE_D(10) LIVE_D(11) LIVE_D(12) LIVE_D(13)    \
  LIVE_D(14) LIVE_D(15) LIVE_D(16) LIVE_D(17) LIVE_D(18) LIVE_D(19)            \
  LIVE_D(20) LIVE_D(21) LIVE_D(22) LIVE_D(23) LIVE_D(24) LIVE_D(25)            \
  LIVE_D(26) LIVE_D(27) LIVE_D(28) LIVE_D(29) LIVE_D(30) LIVE_D(31)            \
  LIVE_X87

#define LIVE_CI(n, s) ok_[n] = i##n == (s) * (2 * n + 1) + n;
#define LIVE_CD(n, e) ok_[LIVE_NI + n] = d##n == (e) * (n + 1) + 0.5 * n;
#define LIVE_VALUES_CHECK(s, e, check)                                         \
  do {                                                                         \
    unsigned char ok_[LIVE_NI + LIVE_ND + 2];                                  \
    uint64_t s2_ = (s);                                                        \
    double e_ = (e);                                                           \
    LIVE_CI(0, s2_) LIVE_CI(1, s2_) LIVE_CI(2, s2_) LIVE_CI(3, s2_)            \
    LIVE_CI(4, s2_) LIVE_CI(5, s2_) LIVE_CI(6, s2_) LIVE_CI(7, s2_)            \
    LIVE_CI(8, s2_) LIVE_CI(9, s2_) LIVE_CI(10, s2_) LIVE_CI(11, s2_)          \
    LIVE_CI(12, s2_) LIVE_CI(13, s2_) LIVE_CI(14, s2_) LIVE_CI(15, s2_)        \
    LIVE_CI(16, s2_) LIVE_CI(17, s2_) LIVE_CI(18, s2_) LIVE_CI(19, s2_)        \
    LIVE_CI(20, s2_) LIVE_CI(21, s2_) LIVE_CI(22, s2_) LIVE_CI(23, s2_)        \
    LIVE_CI(24, s2_) LIVE_CI(25, s2_) LIVE_CI(26, s2_) LIVE_CI(27, s2_)        \
    LIVE_CD(0, e_) LIVE_CD(1, e_) LIVE_CD(2, e_) LIVE_CD(3, e_)                \
    LIVE_CD(4, e_) LIVE_CD(5, e_) LIVE_CD(6, e_) LIVE_CD(7, e_)                \
    LIVE_CD(8, e_) LIVE_CD(9, e_) LIVE_CD(10, e_) LIVE_CD(11, e_)              \
    LIVE_CD(12, e_) LIVE_CD(13, e_) LIVE_CD(14, e_) LIVE_CD(15, e_)            \
    LIVE_CD(16, e_) LIVE_CD(17, e_) LIVE_CD(18, e_) LIVE_CD(19, e_)            \
    LIVE_CD(20, e_) LIVE_CD(21, e_) LIVE_CD(22, e_) LIVE_CD(23, e_)            \
    LIVE_CD(24, e_) LIVE_CD(25, e_) LIVE_CD(26, e_) LIVE_CD(27, e_)            \
    LIVE_CD(28, e_) LIVE_CD(29, e_) LIVE_CD(30, e_) LIVE_CD(31, e_)            \
    LIVE_X87_OK(e_)                                                            \
    for (int n_ = 0; n_ < LIVE_NI; ++n_)                                       \
      check("int", n_, ok_[n_]);                                               \
    for (int n_ = 0; n_ < LIVE_ND; ++n_)                                       \
      check("double", n_, ok_[LIVE_NI + n_]);                                  \
    check("long double", 0, ok_[LIVE_NI + LIVE_ND]);                           \
    check("long double", 1, ok_[LIVE_NI + LIVE_ND + 1]);                       \
  } while (0)

#endif // CACS_TEST_LIVE_VALUES_H
