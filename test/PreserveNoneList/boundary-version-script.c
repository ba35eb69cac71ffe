// A shared library built with the list and linked with a version script
// (global: and local:) that exports a listed function, lfoo. A script that
// names both of its names (`lfoo*`, or `lfoo` and `lfoo.preserve_none_list`
// in a version node) serves a program built with the list (direct calls of
// the body), one built without it (the C entry) and dlsym (the C entry),
// all as stock clang -O0. A script that names `lfoo` alone hides the body:
// a program built with the list then fails to link, naming it (loud, never
// wrong), and the other two are right. lld and GNU ld, x86-64 and AArch64
// (issue 21).
//
// CI runs the suite for LLVM 19 and 22: each takes one -O level (19: -O0,
// 22: -O2), so one CI run covers both.
//
// RUN: rm -rf %t && mkdir %t
// RUN: echo 'fun:lfoo' > %t/list
// RUN: echo '{ global: lfoo*; lbar; lget; local: *; };' > %t/glob.map
// RUN: echo 'LIBL_1.0 { global: lfoo; lfoo.preserve_none_list; lbar; lget; local: *; };' > %t/node.map
// RUN: echo '{ global: lfoo; lbar; lget; local: *; };' > %t/plain.map
// RUN: %stock_clang -O0 -fPIC -shared %S/Inputs/boundary/export-lib.c -o %t/ref.so
// RUN: %stock_clang -O0 %S/Inputs/boundary/export-main.c %t/ref.so -o %t/ref
// RUN: %t/ref > %t/expected
// RUN: for O in $([ %llvm_major = 19 ] && echo -O0 || echo -O2); do for LD in lld bfd; do for M in glob node plain; do \
// RUN:   %clang $O -fuse-ld=$LD -fPIC -shared -Wl,--version-script=%t/$M.map -fpreserve-none-list=%t/list %S/Inputs/boundary/export-lib.c -o %t/libl.so && \
// RUN:   %clang $O -fuse-ld=$LD %S/Inputs/boundary/export-main.c %t/libl.so -o %t/plain-main && \
// RUN:   %clang $O -fuse-ld=$LD -fpreserve-none-list=%t/list -DUSE_DLSYM %S/Inputs/boundary/export-main.c -o %t/dlsym-main -ldl && \
// RUN:   %t/plain-main > %t/out2 && diff %t/expected %t/out2 && \
// RUN:   %t/dlsym-main %t/libl.so > %t/out3 && diff %t/expected %t/out3 || exit 1; \
// RUN:   if [ $M = plain ]; then \
// RUN:     not %clang $O -fuse-ld=$LD -fpreserve-none-list=%t/list %S/Inputs/boundary/export-main.c %t/libl.so -o %t/list-main 2> %t/err && \
// RUN:     FileCheck %s --check-prefix=LINK-$LD < %t/err || exit 1; \
// RUN:   else \
// RUN:     %clang $O -fuse-ld=$LD -fpreserve-none-list=%t/list %S/Inputs/boundary/export-main.c %t/libl.so -o %t/list-main && \
// RUN:     %t/list-main > %t/out1 && diff %t/expected %t/out1 || exit 1; \
// RUN:   fi; \
// RUN: done; done; done
// LINK-lld: undefined symbol: lfoo.preserve_none_list
// LINK-bfd: undefined reference to `lfoo.preserve_none_list'
//
// RUN: %if qemu-aarch64 %{ for O in $([ %llvm_major = 19 ] && echo -O0 || echo -O2); do for M in glob node plain; do \
// RUN:   %clang %aarch64_flags $O -fPIC -shared -Wl,--version-script=%t/$M.map -fpreserve-none-list=%t/list %S/Inputs/boundary/export-lib.c -o %t/libl-a64.so && \
// RUN:   %clang %aarch64_flags $O %S/Inputs/boundary/export-main.c %t/libl-a64.so -o %t/plain-a64 && \
// RUN:   %clang %aarch64_flags $O -fpreserve-none-list=%t/list -DUSE_DLSYM %S/Inputs/boundary/export-main.c -o %t/dlsym-a64 -ldl && \
// RUN:   %run_aarch64 %t/plain-a64 > %t/out5 && diff %t/expected %t/out5 && \
// RUN:   %run_aarch64 %t/dlsym-a64 %t/libl-a64.so > %t/out6 && diff %t/expected %t/out6 || exit 1; \
// RUN:   if [ $M = plain ]; then \
// RUN:     not %clang %aarch64_flags $O -fpreserve-none-list=%t/list %S/Inputs/boundary/export-main.c %t/libl-a64.so -o %t/list-a64 || exit 1; \
// RUN:   else \
// RUN:     %clang %aarch64_flags $O -fpreserve-none-list=%t/list %S/Inputs/boundary/export-main.c %t/libl-a64.so -o %t/list-a64 && \
// RUN:     %run_aarch64 %t/list-a64 > %t/out4 && diff %t/expected %t/out4 || exit 1; \
// RUN:   fi; \
// RUN: done; done %}
