// A full-LTO link runs the list again over the merged module, which holds
// the shields the compile steps made: a caller that may address its frame
// through a base pointer (here: ASan gives it an aligned frame) calls the
// listed `weigh` through `weigh.cacs.shield`, a C-convention wrapper, and the
// glob `fun:weigh*` names that shield too. The list gave the shield
// preserve_none, the final check shielded the shield, and the inner one's
// tail call of the lazily bound `weigh` (12 integer arguments, through the
// GOT) stopped lld with "ran out of registers during register allocation"
// (found by scripts/hazard-matrix: asan shlib lto). cacs's wrappers are not
// the program's functions: no list names them, and APN does not infect
// them. The output must be stock clang -O0's without the attribute.
//
// RUN: rm -rf %t && mkdir %t %t/ref
// RUN: printf 'fun:weigh*\n' > %t/pn.list
// RUN: %stock_clang -O0 -fPIC -shared -DLIB %s -o %t/ref/libweigh.so
// RUN: %stock_clang -O0 %s -L%t/ref -lweigh -Wl,-rpath,%t/ref -o %t/ref/prog
// RUN: %t/ref/prog > %t/expected
// RUN: %clang -O2 -flto -fPIC -shared -DLIB -fpreserve-none-list=%t/pn.list %s -o %t/libweigh.so
// RUN: %clang -O2 -flto -fsanitize=address -fpreserve-none-list=%t/pn.list %s \
// RUN:   -L%t -lweigh -Wl,-rpath,%t -Wl,--save-temps -o %t/prog
// RUN: env -u LD_BIND_NOW %t/prog > %t/out && diff %t/expected %t/out
// The shield made per TU is still a C function after the link (LLVM 22
// keeps rbx across preserve_none calls itself and makes no shield here):
// RUN: %if llvm-19 %{ llvm-dis %t/prog.0.5.precodegen.bc -o - | FileCheck %s %}
// CHECK: define private {{(fastcc )?}}i64 @weigh.preserve_none_list.cacs.shield(
// CHECK-NOT: cacs.shield.cacs.shield

long weigh(long a0, long a1, long a2, long a3, long a4, long a5, long a6,
           long a7, long a8, long a9, long a10, long a11);

#ifdef LIB
long weigh(long a0, long a1, long a2, long a3, long a4, long a5, long a6,
           long a7, long a8, long a9, long a10, long a11) {
  return a0 + 2 * a1 + 3 * a2 + 5 * a3 + 7 * a4 + 11 * a5 + 13 * a6 +
         17 * a7 + 19 * a8 + 23 * a9 + 29 * a10 + 31 * a11;
}
#else
#include <stdio.h>

__attribute__((noinline)) static long caller(long x) {
  volatile char buf[40]; // ASan gives this frame an aligned frame of its own.
  for (int i = 0; i < 40; ++i)
    buf[i] = (char)(x + i);
  long r = weigh(x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7, x + 8,
                 x + 9, x + 10, x + 11);
  return r + buf[x % 40];
}

int main(void) {
  for (long i = 1; i <= 3; ++i)
    printf("%ld\n", caller(i * 1000));
  return 0;
}
#endif
