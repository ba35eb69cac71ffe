// Lazy PLT binding reached through a pointer: in code that is not
// position-independent (-fno-pic, linked -no-pie), clang takes the address
// of an external function directly, and the linker makes the executable's
// PLT entry the function's address everywhere in the program (a canonical
// PLT entry; the same for a pointer in a read-only table). That entry is
// bound lazily: the first call through the pointer goes through glibc's
// resolver, which clobbers r11 (x86-64) and x9-x15 (AArch64), where
// preserve_none passes the 11th and the 18th to 24th integer arguments.
// Once such an entry exists, even a call that cacs binds at load time
// (nonlazybind, through the GOT) reaches it: the GOT holds that address.
// cacs takes the address of such a function from the GOT or a relocation
// the dynamic linker applies at load time: no canonical PLT entry. The
// output must be stock clang -O0's without the attribute, run without
// LD_BIND_NOW; a position-independent executable was never affected. An
// object that takes the address directly and is not compiled by cacs with
// the attribute still makes such an entry (x86-64; on AArch64 cacs's
// library marks the function, below).
//
// RUN: rm -rf %t && mkdir %t
// RUN: %stock_clang -O0 -fPIC -shared %S/Inputs/lazy-plt-lib.c -o %t/libref.so
// RUN: %stock_clang -O0 %s -L%t -lref -Wl,-rpath,%t -o %t/ref
// RUN: env -u LD_BIND_NOW %t/ref > %t/expected
// The library is stock clang's, with the attribute: only the executable is
// cacs's. The address taken in code, held in a read-only table, taken by
// another unit while this one calls directly:
// RUN: %stock_clang -O2 -fPIC -shared -DATTR %S/Inputs/lazy-plt-lib.c -o %t/libattr.so
// RUN: for opt in -O0 -O2; do for how in CODE TABLE OTHER; do \
// RUN:   other=; if [ $how = OTHER ]; then other=%S/Inputs/lazy-plt-address-other.c; fi; \
// RUN:   %clang $opt -fno-pic -no-pie -DATTR -DHOW_$how %s $other -L%t -lattr -Wl,-rpath,%t -o %t/$how$opt && \
// RUN:   env -u LD_BIND_NOW %t/$how$opt > %t/$how$opt.out && diff %t/expected %t/$how$opt.out || exit 1; done; done
// RUN: %if qemu-aarch64 %{ %stock_clang %aarch64_flags -O2 -fPIC -shared -DATTR %S/Inputs/lazy-plt-lib.c -o %t/liba64.so %}
// RUN: %if qemu-aarch64 %{ for opt in -O0 -O2; do for how in CODE TABLE OTHER; do \
// RUN:   other=; if [ $how = OTHER ]; then other=%S/Inputs/lazy-plt-address-other.c; fi; \
// RUN:   %clang %aarch64_flags $opt -fno-pic -no-pie -DATTR -DHOW_$how %s $other -L%t -la64 -Wl,-rpath,%t -o %t/a64$how$opt && \
// RUN:   env -u LD_BIND_NOW %run_aarch64 %t/a64$how$opt > %t/a64$how$opt.out && diff %t/expected %t/a64$how$opt.out || exit 1; done; done %}
// AArch64, the other way round: cacs's library marks the function (a variant
// PCS symbol), and a stock clang executable that takes its address binds it
// at load time.
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -fPIC -shared -DATTR %S/Inputs/lazy-plt-lib.c -o %t/liba64cacs.so %}
// RUN: %if qemu-aarch64 %{ %stock_clang %aarch64_flags -O2 -fno-pic -no-pie -DATTR -DHOW_TABLE %s -L%t -la64cacs -Wl,-rpath,%t -o %t/a64stock %}
// RUN: %if qemu-aarch64 %{ env -u LD_BIND_NOW %run_aarch64 %t/a64stock > %t/a64stock.out && diff %t/expected %t/a64stock.out %}
#include "Inputs/lazy-plt-address.h"
#include <stdio.h>

volatile long seed = 1;

// Each way on its own: one reference that is not through the GOT makes the
// canonical PLT entry.
#if defined(HOW_CODE)
static weighted_fn *pick(void) {
  weighted_fn *volatile address = weighted; // Not folded into a direct call.
  return address;
}
#elif defined(HOW_TABLE)
weighted_fn *const table[] = {weighted};
volatile int index0 = 0;
static weighted_fn *pick(void) { return table[index0]; }
#elif defined(HOW_OTHER)
// Linked in, never called: the direct call below is the first call.
weighted_fn *weighted_address(void);
weighted_fn *(*volatile keep)(void) = weighted_address;
#endif

int main(void) {
  for (int i = 0; i < 2; ++i) { // The first call is the one bound lazily.
    long b = seed + i;
#define ARGS                                                                   \
  b, b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7, b + 8, b + 9, b + 10,    \
      b + 11, b + 12, b + 13, b + 14, b + 15, b + 16, b + 17, b + 18, b + 19,  \
      b + 20, b + 21, b + 22, b + 23
#if defined(HOW_CODE) || defined(HOW_TABLE)
    printf("%ld\n", pick()(ARGS));
#else
    printf("%ld\n", weighted(ARGS)); // HOW_OTHER, and the reference.
#endif
  }
  return 0;
}
