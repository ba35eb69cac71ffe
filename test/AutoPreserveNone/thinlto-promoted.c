// ThinLTO: APN infects the static function 'promoted' in its own unit (the
// pre-link compile). The link imports 'exported' into the other unit and
// inlines it there, so 'promoted' is called from that unit: ThinLTO
// promotes it to a hidden global ('promoted.llvm.<hash>'), and the other
// unit gets a declaration of it, with its calling convention and its
// "cacs-apn-infected" mark. The final check in each ThinLTO backend then
// finds a preserve_none function visible outside the module and makes it C
// again with its calls, in both units alike: the definition in this one,
// the declaration and the inlined call in the other. Were only one side
// reverted, the call would pass its arguments in the preserve_none
// registers to a C function (11 instead of 23 on both targets). The output
// must be stock clang -O0's without the attribute.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %stock_clang -O0 -DREFERENCE %s %S/Inputs/thinlto-promoted-other.c -o %t/ref && %t/ref > %t/expected
// RUN: %clang -O2 -flto=thin -fauto-preserve-none -c %s -o %t/this.o
// RUN: %clang -O2 -flto=thin -fauto-preserve-none -c %S/Inputs/thinlto-promoted-other.c -o %t/other.o
// RUN: %clang -O2 -flto=thin %t/this.o %t/other.o -o %t/thin -Rpass=preserve-none-safety 2>&1 | FileCheck %s
// RUN: %t/thin > %t/thin.out && diff %t/expected %t/thin.out
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -flto=thin -fauto-preserve-none -c %s -o %t/a64this.o %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -flto=thin -fauto-preserve-none -c %S/Inputs/thinlto-promoted-other.c -o %t/a64other.o %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -flto=thin %t/a64this.o %t/a64other.o -o %t/a64 -Rpass=preserve-none-safety 2>&1 | FileCheck %s %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %t/a64 > %t/a64.out && diff %t/expected %t/a64.out %}
//
// CHECK-COUNT-2: 'promoted.llvm.{{[0-9]+}}' is made C again: it is visible outside the module
// CHECK-NOT: made C again
#ifdef REFERENCE
#define PN
#else
#define PN __attribute__((preserve_none))
#endif

PN __attribute__((noinline)) void seed_switch(void) { __asm__ volatile(""); }

static __attribute__((noinline)) long promoted(long x, long y) {
  seed_switch();
  return x * 3 + y;
}

long exported(long x) { return promoted(x, 7) + 1; }
