// A listed function that the unit only declares and a library built
// without the list defines (a .so and a .o, built by stock clang): the
// caller calls the preserve_none body by its decorated name,
// lib_scale.preserve_none_list, which the library does not define, so the link fails,
// naming the function and the list, with lld and with GNU ld (before, the
// call passed its arguments in preserve_none's registers to C code: a wrong
// result, silently: issue 21, defect 1).
//
// RUN: rm -rf %t && mkdir %t
// RUN: echo 'fun:lib_*' > %t/list
// RUN: %stock_clang -O0 -fPIC -shared %S/Inputs/boundary/lib.c -o %t/liblib.so
// RUN: %stock_clang -O0 -c %S/Inputs/boundary/lib.c -o %t/lib.o
// RUN: for O in -O0 -O2; do for LD in lld bfd; do \
// RUN:   not %clang $O -fuse-ld=$LD -fpreserve-none-list=%t/list %S/Inputs/boundary/lib-use.c %t/lib.o -o %t/prog 2> %t/err && \
// RUN:   FileCheck %s --check-prefix=LINK-$LD < %t/err && \
// RUN:   not %clang $O -fuse-ld=$LD -fpreserve-none-list=%t/list %S/Inputs/boundary/lib-use.c -L%t -llib -o %t/prog 2> %t/err && \
// RUN:   FileCheck %s --check-prefix=LINK-$LD < %t/err || exit 1; \
// RUN: done; done
// LINK-lld: undefined symbol: lib_scale.preserve_none_list
// LINK-bfd: undefined reference to `lib_scale.preserve_none_list'
//
// The function the program defines takes the convention, and its calls
// reach it; the declaration keeps the plain name for its address.
// RUN: %clang -O1 -S -emit-llvm -fpreserve-none-list=%t/list %S/Inputs/boundary/lib-use.c -o - | FileCheck %s --check-prefix=IR
// IR: call preserve_nonecc i64 @lib_scale.preserve_none_list(i64 noundef 1, i64 noundef 2, i64 noundef 3)
