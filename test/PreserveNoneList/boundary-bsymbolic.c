// A shared library built with the list and linked with -Bsymbolic or
// -Bsymbolic-functions exports a listed function, lfoo, under both of its
// names (the C entry `lfoo` and the body `lfoo.preserve_none_list`), and
// its own lbar calls the body, bound inside the library. A program built
// with the list (direct calls of the body), one built without it (calls of
// the C entry), and one that finds the functions with dlsym (the C entry)
// all print what stock clang -O0 prints, with lld and GNU ld, on x86-64 and
// AArch64 (issue 21: binding options change nothing but where the names
// bind).
//
// CI runs the suite for LLVM 19 and 22: each takes one -O level (19: -O0,
// 22: -O2), so one CI run covers both.
//
// RUN: rm -rf %t && mkdir %t
// RUN: echo 'fun:lfoo' > %t/list
// RUN: %stock_clang -O0 -fPIC -shared %S/Inputs/boundary/export-lib.c -o %t/ref.so
// RUN: %stock_clang -O0 %S/Inputs/boundary/export-main.c %t/ref.so -o %t/ref
// RUN: %t/ref > %t/expected
// RUN: for O in $([ %llvm_major = 19 ] && echo -O0 || echo -O2); do for LD in lld bfd; do for B in -Bsymbolic -Bsymbolic-functions; do \
// RUN:   %clang $O -fuse-ld=$LD -fPIC -shared -Wl,$B -fpreserve-none-list=%t/list %S/Inputs/boundary/export-lib.c -o %t/libl.so && \
// RUN:   %clang $O -fuse-ld=$LD -fpreserve-none-list=%t/list %S/Inputs/boundary/export-main.c %t/libl.so -o %t/list-main && \
// RUN:   %clang $O -fuse-ld=$LD %S/Inputs/boundary/export-main.c %t/libl.so -o %t/plain-main && \
// RUN:   %clang $O -fuse-ld=$LD -fpreserve-none-list=%t/list -DUSE_DLSYM %S/Inputs/boundary/export-main.c -o %t/dlsym-main -ldl && \
// RUN:   %t/list-main > %t/out1 && diff %t/expected %t/out1 && \
// RUN:   %t/plain-main > %t/out2 && diff %t/expected %t/out2 && \
// RUN:   %t/dlsym-main %t/libl.so > %t/out3 && diff %t/expected %t/out3 || exit 1; \
// RUN: done; done; done
// RUN: %if qemu-aarch64 %{ for O in $([ %llvm_major = 19 ] && echo -O0 || echo -O2); do for B in -Bsymbolic -Bsymbolic-functions; do \
// RUN:   %clang %aarch64_flags $O -fPIC -shared -Wl,$B -fpreserve-none-list=%t/list %S/Inputs/boundary/export-lib.c -o %t/libl-a64.so && \
// RUN:   %clang %aarch64_flags $O -fpreserve-none-list=%t/list %S/Inputs/boundary/export-main.c %t/libl-a64.so -o %t/list-a64 && \
// RUN:   %clang %aarch64_flags $O %S/Inputs/boundary/export-main.c %t/libl-a64.so -o %t/plain-a64 && \
// RUN:   %clang %aarch64_flags $O -fpreserve-none-list=%t/list -DUSE_DLSYM %S/Inputs/boundary/export-main.c -o %t/dlsym-a64 -ldl && \
// RUN:   %run_aarch64 %t/list-a64 > %t/out4 && diff %t/expected %t/out4 && \
// RUN:   %run_aarch64 %t/plain-a64 > %t/out5 && diff %t/expected %t/out5 && \
// RUN:   %run_aarch64 %t/dlsym-a64 %t/libl-a64.so > %t/out6 && diff %t/expected %t/out6 || exit 1; \
// RUN: done; done %}
//
// Both names are exported and defined in the library.
// RUN: %clang -O2 -fPIC -shared -Wl,-Bsymbolic -fpreserve-none-list=%t/list %S/Inputs/boundary/export-lib.c -o %t/libl.so
// RUN: llvm-nm -D --defined-only %t/libl.so | FileCheck %s --check-prefix=SYMS
// SYMS: T lfoo{{$}}
// SYMS-NEXT: T lfoo.preserve_none_list{{$}}
