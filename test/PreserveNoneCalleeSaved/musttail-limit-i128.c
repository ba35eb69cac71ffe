// An __int128 argument takes two integer registers under preserve_none on
// x86-64, so an indirect musttail call with fewer than 12 arguments can
// still take all 12 registers and leave none for the target address. cacs
// counts the registers, not the arguments: the diagnostic, not the backend's
// "ran out of registers" (LLVM 19 and 22; LLVM 22 at -O0 crashes on the
// 13-register shape). 11 registers compile; AArch64 has registers to spare.
// RUN: not %clang -O2 -c -DWIDE5 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDE5
// RUN: not %clang -O0 -c -DWIDE5 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDE5
// RUN: not %clang -O2 -c -DLAST13 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LAST13
// RUN: not %clang -O0 -c -DLAST13 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LAST13
// RUN: %clang -O2 -c %s -o /dev/null
// RUN: %clang -O0 -c %s -o /dev/null
// RUN: %clang %aarch64_flags -O2 -c -DWIDE5 %s -o /dev/null
// RUN: %clang %aarch64_flags -O2 -c -DLAST13 %s -o /dev/null
// The stock compiler fails on both shapes (LLVM 22 reports running out of
// registers or crashes after it, depending on the run) and compiles the
// 11-register one:
// RUN: not %stock_clang -O2 -c -DWIDE5 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STOCK
// RUN: not %stock_clang -O2 -c -DLAST13 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STOCK
// RUN: %stock_clang -O2 -c %s -o /dev/null
//
// STOCK: {{ran out of registers during register allocation|Stack dump:}}

#define PN __attribute__((preserve_none))
typedef __int128 W;
#if defined(WIDE5) // the target, five __int128 and a long: 7 arguments
#define ARGS void *f, W a, W b, W c, W d, W e, long g
#define VALS f, a, b, c, d, e, g
#elif defined(LAST13) // the target, ten longs, an __int128 last
#define ARGS                                                                   \
  void *f, long a, long b, long c, long d, long e, long g, long h, long i,     \
      long j, long k, W l
#define VALS f, a, b, c, d, e, g, h, i, j, k, l
#else // the target and five __int128: 11 registers
#define ARGS void *f, W a, W b, W c, W d, W e
#define VALS f, a, b, c, d, e
#endif
typedef PN W (*fn)(ARGS);
PN W dispatch(ARGS) { [[clang::musttail]] return ((fn)f)(VALS); }
// WIDE5: musttail-limit-i128.c:[[@LINE-1]]:{{[0-9]+}}: error: {{.*}}indirect preserve_none musttail call in 'dispatch' needs 12 integer argument registers; on x86-64 at most 11 leave one for the target address
// WIDE5-NOT: ran out of registers
// LAST13: musttail-limit-i128.c:[[@LINE-3]]:{{[0-9]+}}: error: {{.*}}indirect preserve_none musttail call in 'dispatch' needs 13 integer argument registers; on x86-64 at most 11 leave one for the target address
// LAST13-NOT: ran out of registers
