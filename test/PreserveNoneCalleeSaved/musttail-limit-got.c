// A preserve_none musttail call through the GOT whose arguments take all 12
// integer argument registers of x86-64 leaves none for the target address,
// as an indirect one does (musttail-limit.c): -fno-plt, or -fPIC, where cacs
// binds a callee with 11 or more integer arguments at load time (the lazy
// PLT resolver would clobber r11). LLVM 19 and 22 stop with "ran out of
// registers during register allocation"; cacs reports it instead. Through
// the PLT of a function that the lazy resolver cannot clobber, or with 11
// integer arguments, it compiles.
// RUN: not %clang -O2 -fPIC -c -DARGS12 %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %clang -O2 -fno-plt -c -DARGS12 %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %clang -O2 -fPIC -fno-plt -c %s -o /dev/null
// RUN: not %stock_clang -O2 -fno-plt -c -DARGS12 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STOCK
//
// CHECK: musttail-limit-got.c:[[@LINE+13]]:{{[0-9]+}}: error: {{.*}}preserve_none musttail call to 'next' through the GOT in 'step' needs 12 integer argument registers; on x86-64 at most 11 leave one for the target address
// CHECK-NOT: ran out of registers
// STOCK: ran out of registers during register allocation

#define PN __attribute__((preserve_none))
#ifdef ARGS12
#define ARGS long a, long b, long c, long d, long e, long f, long g, long h, long i, long j, long k, long l
#define VALS a, b, c, d, e, f, g, h, i, j, k, l
#else
#define ARGS long a, long b, long c, long d, long e, long f, long g, long h, long i, long j, long k
#define VALS a, b, c, d, e, f, g, h, i, j, k
#endif
PN long next(ARGS);
PN long step(ARGS) { [[clang::musttail]] return next(VALS); }
