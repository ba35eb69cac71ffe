// LD_AUDIT with an audit library that has la_pltenter (x86-64, glibc): every
// call through a lazily bound PLT entry, not only the first, goes through
// _dl_runtime_profile, which, like the lazy resolver, preserves only the C
// argument registers, not r11 (the 11th preserve_none integer argument).
// cacs binds such calls at load time (nonlazybind: through the GOT, filled
// by a GLOB_DAT relocation), which the audit interface does not intercept.
// The program is run without LD_BIND_NOW; its output must be stock clang
// -O0's without the attribute. Stock clang with the attribute printed
// garbage on both calls here. The program is lazy-plt.c's.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %stock_clang -O2 -fPIC -shared %S/Inputs/plt-audit.c -o %t/audit.so
// RUN: %stock_clang -O0 %S/Inputs/lazy-plt-lib.c %S/lazy-plt.c -o %t/ref && env -u LD_BIND_NOW %t/ref > %t/expected
// RUN: echo 'fun:weighted' > %t/list
// RUN: %clang -O2 -fPIC -shared -DATTR %S/Inputs/lazy-plt-lib.c -o %t/libattr.so
// RUN: %clang -O2 -DATTR %S/lazy-plt.c -L%t -lattr -Wl,-rpath,%t -o %t/attr
// RUN: env -u LD_BIND_NOW LD_AUDIT=%t/audit.so %t/attr > %t/attr.out && diff %t/expected %t/attr.out
// RUN: %clang -O0 -fPIC -shared -fpreserve-none-list=%t/list -Wno-backend-plugin %S/Inputs/lazy-plt-lib.c -o %t/liblist.so
// RUN: %clang -O0 -fpreserve-none-list=%t/list %S/lazy-plt.c -L%t -llist -Wl,-rpath,%t -o %t/list0
// RUN: env -u LD_BIND_NOW LD_AUDIT=%t/audit.so %t/list0 > %t/list0.out && diff %t/expected %t/list0.out
