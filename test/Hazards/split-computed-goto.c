// A listed function with computed gotos (a table of `&&label`s, the shape
// of Oniguruma's match_at) that the final check splits: its frame is probed
// by -fstack-clash-protection in a loop that clobbers its 23rd integer
// argument (r11 on x86-64, x9 on AArch64), so its body moves into a
// C-convention function. The blocks' addresses must move with the blocks:
// on LLVM 19 they kept naming the entry, `-c -emit-llvm` output failed
// llvm-dis, and -flto and -flto=thin links stopped with "ld.lld: error:
// Invalid ID" (Transforms/PreserveNoneSafety/split-block-address.ll). The
// output must be stock clang -O0's.
//
// RUN: rm -rf %t && mkdir %t
// RUN: printf 'fun:run\n' > %t/list
// RUN: %stock_clang -O0 %s -o %t/ref && %t/ref > %t/expected
// RUN: %clang -O1 -fstack-clash-protection -fpreserve-none-list=%t/list -c -emit-llvm %s -o %t/run.bc
// RUN: llvm-dis %t/run.bc -o - | FileCheck %s
// CHECK: @run.tbl = internal {{.*}}[ptr blockaddress(@run.preserve_none_list.cacs.body, %{{.*}}), ptr blockaddress(@run.preserve_none_list.cacs.body, %{{.*}}), ptr blockaddress(@run.preserve_none_list.cacs.body, %{{.*}})]
// RUN: %clang -O2 -fstack-clash-protection -fpreserve-none-list=%t/list %s -o %t/o2
// RUN: %t/o2 > %t/o2.out && diff %t/expected %t/o2.out
// RUN: %clang -O2 -flto -fstack-clash-protection -fpreserve-none-list=%t/list %s -o %t/lto
// RUN: %t/lto > %t/lto.out && diff %t/expected %t/lto.out
// RUN: %clang -O0 -flto=thin -fstack-clash-protection -fpreserve-none-list=%t/list %s -o %t/thin
// RUN: %t/thin > %t/thin.out && diff %t/expected %t/thin.out
//
// AArch64, under qemu:
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -flto -fstack-clash-protection -fpreserve-none-list=%t/list %s -o %t/a64-lto %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %t/a64-lto > %t/a64-lto.out && diff %t/expected %t/a64-lto.out %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O1 -flto=thin -fstack-clash-protection -fpreserve-none-list=%t/list %s -o %t/a64-thin %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %t/a64-thin > %t/a64-thin.out && diff %t/expected %t/a64-thin.out %}
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) void fill(char *p, long n) { memset(p, 'a', n); }

// op codes: 0 adds the next argument, 1 doubles, 2 ends.
__attribute__((noinline)) long run(const unsigned char *prog, long a2, long a3,
                                   long a4, long a5, long a6, long a7, long a8,
                                   long a9, long a10, long a11, long a12,
                                   long a13, long a14, long a15, long a16,
                                   long a17, long a18, long a19, long a20,
                                   long a21, long a22, long a23) {
  static void *tbl[] = {&&op_add, &&op_dbl, &&op_end};
  long args[] = {a2,  a3,  a4,  a5,  a6,  a7,  a8,  a9,  a10, a11, a12,
                 a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23};
  char big[70000];
  fill(big, sizeof big);
  big[sizeof big - 1] = 0;
  long acc = 0, next = 0;
  goto *tbl[*prog];
op_add:
  acc += args[next++ % 22];
  goto *tbl[*++prog];
op_dbl:
  acc *= 2;
  goto *tbl[*++prog];
op_end:
  return acc + a23 * 1000 + (long)strlen(big);
}

int main(void) {
  static const unsigned char prog[] = {0, 1, 0, 0, 1, 2};
  printf("%ld\n", run(prog, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                      17, 18, 19, 20, 21, 22, 23));
  return 0;
}
