// KCFI (-fsanitize=kcfi, both targets) and CFI (-fsanitize=cfi-icall, under
// full LTO) check the type of the target of every indirect call. The address
// of a listed function is its C-convention entry `<name>.cacs_c_entry`, and
// the address of an unlisted alias of it is `<name>.cacs_c_entry.alias`:
// without the function's type (!kcfi_type, !type) the check failed and the
// program trapped at the first indirect call, with any argument count. The
// entries now carry the function's type. The output must be stock clang
// -O0's.
//
// RUN: %stock_clang -O0 %s -o %t.ref && %t.ref > %t.expected
// RUN: printf 'fun:f\nfun:many\n' > %t.list
// RUN: %clang -O2 -fsanitize=kcfi -fpreserve-none-list=%t.list %s -o %t.kcfi && %t.kcfi > %t.kcfi.out && diff %t.expected %t.kcfi.out
// RUN: %clang -O0 -fsanitize=kcfi -fpreserve-none-list=%t.list %s -o %t.kcfi0 && %t.kcfi0 > %t.kcfi0.out && diff %t.expected %t.kcfi0.out
// RUN: %clang -O2 -flto -fvisibility=hidden -fsanitize=cfi-icall -fpreserve-none-list=%t.list %s -o %t.cfi && %t.cfi > %t.cfi.out && diff %t.expected %t.cfi.out
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -fsanitize=kcfi -fpreserve-none-list=%t.list %s -o %t.a64 && %run_aarch64 %t.a64 > %t.a64.out && diff %t.expected %t.a64.out %}
#include <stdio.h>

__attribute__((noinline)) long f(long a) { return a + 1; }
// An alias that the list does not name.
extern long g(long) __attribute__((alias("f")));

__attribute__((noinline)) long many(long a1, long a2, long a3, long a4,
                                    long a5, long a6, long a7, long a8,
                                    long a9, long a10, long a11) {
  return a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 + 8 * a8 +
         9 * a9 + 10 * a10 + 11 * a11;
}

int main(void) {
  long (*volatile fp)(long) = f;
  long (*volatile gp)(long) = g;
  long (*volatile mp)(long, long, long, long, long, long, long, long, long,
                      long, long) = many;
  printf("%ld %ld\n", fp(41), gp(99));
  printf("%ld\n", mp(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
  return 0;
}
