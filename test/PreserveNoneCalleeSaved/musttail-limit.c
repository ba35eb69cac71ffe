// An indirect preserve_none musttail call whose arguments take all 12
// integer argument registers of x86-64 leaves none for the target address:
// LLVM 19 and 22 stop with "ran out of registers during register
// allocation". cacs reports it instead, naming the function and the line.
// With 11 integer arguments it compiles; AArch64 has registers to spare.
// RUN: not %clang -O2 -c -DARGS12 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=X86
// RUN: not %clang -O0 -c -DARGS12 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=X86
// RUN: %clang -O2 -c %s -o /dev/null
// RUN: %clang -O0 -c %s -o /dev/null
// RUN: %clang %aarch64_flags -O2 -c -DARGS12 %s -o /dev/null
// The stock compiler's error, which the diagnostic replaces:
// RUN: not %stock_clang -O2 -c -DARGS12 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STOCK
//
// X86: musttail-limit.c:[[@LINE+13]]:{{[0-9]+}}: error: {{.*}}indirect preserve_none musttail call in 'dispatch' needs 12 integer argument registers; on x86-64 at most 11 leave one for the target address
// X86-NOT: ran out of registers
// STOCK: ran out of registers during register allocation

#define PN __attribute__((preserve_none))
#ifdef ARGS12
#define ARGS void *f, long a, long b, long c, long d, long e, long g, long h, long i, long j, long k, long l
#define VALS f, a, b, c, d, e, g, h, i, j, k, l
#else
#define ARGS void *f, long a, long b, long c, long d, long e, long g, long h, long i, long j, long k
#define VALS f, a, b, c, d, e, g, h, i, j, k
#endif
typedef PN long (*fn)(ARGS);
PN long dispatch(ARGS) { [[clang::musttail]] return ((fn)f)(VALS); }
