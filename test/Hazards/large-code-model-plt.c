// x86-64 -mcmodel=large in code that is not position-independent takes the
// address of every function as an absolute immediate (`movabsq $weighted`),
// whatever its visibility, so the linker makes the executable's lazily
// bound PLT entry the function's address in the whole program, and the
// call cannot be bound at load time as cacs binds the other calls whose
// arguments the lazy resolver would clobber (r11, the 11th). The first
// call printed garbage (the matrix's row mcmodel-large-no-pie, shlib
// cells; -O0 to -O2 and -flto). It is now an error naming the function;
// -fPIE (or -fPIC) with the large model is right, and so is a link with
// -z now, which binds the PLT entry at load time: a command that compiles
// and links knows it (-Wl,-z,now, -z now, -Xlinker; the last of -z now and
// -z lazy wins), a compile alone (-c) or a full-LTO link (whose passes run
// in lld, which cannot be told) does not. The program is lazy-plt.c's, run
// without LD_BIND_NOW; its output must be stock clang -O0's.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %stock_clang -O0 %S/Inputs/lazy-plt-lib.c %S/lazy-plt.c -o %t/ref && env -u LD_BIND_NOW %t/ref > %t/expected
// RUN: echo 'fun:weighted' > %t/list
// RUN: %clang -O2 -fPIC -shared -fpreserve-none-list=%t/list -Wno-backend-plugin %S/Inputs/lazy-plt-lib.c -o %t/liblist.so
// RUN: not %clang -O2 -mcmodel=large -fno-pic -no-pie -fpreserve-none-list=%t/list %S/lazy-plt.c -L%t -llist -o %t/bad 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang -O0 -mcmodel=large -fno-pic -no-pie -fpreserve-none-list=%t/list %S/lazy-plt.c -L%t -llist -o %t/bad 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %clang -O2 -fPIC -shared -DATTR %S/Inputs/lazy-plt-lib.c -o %t/libattr.so
// RUN: not %clang -O2 -mcmodel=large -fno-pic -no-pie -DATTR %S/lazy-plt.c -L%t -lattr -o %t/bad 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %clang -O2 -mcmodel=large -fPIE -fpreserve-none-list=%t/list %S/lazy-plt.c -L%t -llist -Wl,-rpath,%t -o %t/pie
// RUN: env -u LD_BIND_NOW %t/pie > %t/pie.out && diff %t/expected %t/pie.out
// Linked with -z now in the same command: accepted, and right.
// RUN: %clang -O2 -mcmodel=large -fno-pic -no-pie -fpreserve-none-list=%t/list %S/lazy-plt.c -L%t -llist -Wl,-rpath,%t -Wl,-z,now -o %t/now
// RUN: env -u LD_BIND_NOW %t/now > %t/now.out && diff %t/expected %t/now.out
// RUN: %clang -O2 -mcmodel=large -fno-pic -no-pie -DATTR %S/lazy-plt.c -L%t -lattr -Wl,-rpath,%t -z now -o %t/now-attr
// RUN: env -u LD_BIND_NOW %t/now-attr > %t/now-attr.out && diff %t/expected %t/now-attr.out
// Still refused: -z lazy last, a compile alone, a full-LTO link.
// RUN: not %clang -O2 -mcmodel=large -fno-pic -no-pie -fpreserve-none-list=%t/list %S/lazy-plt.c -L%t -llist -Wl,-z,now -Xlinker -z -Xlinker lazy -o %t/bad 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang -O2 -mcmodel=large -fno-pic -fpreserve-none-list=%t/list -c %S/lazy-plt.c -o %t/bad.o 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not %clang -O2 -flto -mcmodel=large -fno-pic -no-pie -fpreserve-none-list=%t/list %S/lazy-plt.c -L%t -llist -Wl,-z,now -o %t/bad 2>&1 | FileCheck %s --implicit-check-not=error:
// CHECK: error: preserve_none function 'weighted{{(\.preserve_none_list)?}}' may be bound lazily, and its integer argument 11 is in a register the lazy PLT resolver clobbers; code of the large code model (-mcmodel=large) that is not position-independent takes its address directly, which makes the PLT entry its address everywhere, so cacs cannot bind it at load time; compile with -fPIC or -fPIE, or link with -z now in the command that compiles
