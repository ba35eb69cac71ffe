// A target cacs does not support (supportsPreserveNone): every cacs flag
// gets a warning that says it does nothing there, the code is what stock
// clang makes of it, and a hand-written preserve_none is ignored with
// clang's own warnings, as stock clang does (the same lines). Before (issue 21, defect 4),
// riscv64: a listed function stopped the backend with "fatal error: error in
// backend: Unsupported calling convention".
//
// RUN: rm -rf %t && mkdir %t && echo 'fun:listed' > %t/list
// RUN: for O in -O0 -O1 -O2; do \
// RUN:   %clang --target=riscv64-linux-gnu $O -fpreserve-none-list=%t/list -fauto-preserve-none -fpreserve-none-callee-saved=none -fpreserve-none-list-export-warning -c %S/Inputs/target.c -o %t/cacs.o 2> %t/err && \
// RUN:   FileCheck %s --input-file=%t/err --implicit-check-not=-Wbackend-plugin --implicit-check-not=error: && \
// RUN:   %stock_clang --target=riscv64-linux-gnu $O -c %S/Inputs/target.c -o %t/stock.o 2> %t/stock-err && \
// RUN:   grep -v -e 'does nothing on target' -e 'generated\.$' %t/err > %t/cacs-clang-err; \
// RUN:   grep -v 'generated\.$' %t/stock-err > %t/stock-clang-err; \
// RUN:   diff %t/stock-clang-err %t/cacs-clang-err && \
// RUN:   %clang --target=riscv64-linux-gnu $O -fpreserve-none-list=%t/list -fauto-preserve-none -fpreserve-none-callee-saved=none -fpreserve-none-list-export-warning -S %S/Inputs/target.c -o %t/cacs.s 2> /dev/null && \
// RUN:   %stock_clang --target=riscv64-linux-gnu $O -S %S/Inputs/target.c -o %t/stock.s 2> /dev/null && \
// RUN:   diff %t/stock.s %t/cacs.s || exit 1; \
// RUN: done
// CHECK: target.c:6:16: warning: 'preserve_none' calling convention is not supported for this target [-Wignored-attributes]
// CHECK: warning: -fauto-preserve-none does nothing on target 'riscv64-unknown-linux-gnu': cacs gives preserve_none on x86-64 and AArch64 only, and every function here keeps the C calling convention [-Wbackend-plugin]
// CHECK: warning: -fpreserve-none-list= does nothing on target 'riscv64-unknown-linux-gnu': cacs gives preserve_none on x86-64 and AArch64 only, and every function here keeps the C calling convention [-Wbackend-plugin]
// CHECK: warning: -fpreserve-none-list-export-warning does nothing on target 'riscv64-unknown-linux-gnu': cacs gives preserve_none on x86-64 and AArch64 only, and every function here keeps the C calling convention [-Wbackend-plugin]
// CHECK: warning: -fpreserve-none-callee-saved=none does nothing on target 'riscv64-unknown-linux-gnu': cacs gives preserve_none on x86-64 and AArch64 only, and every function here keeps the C calling convention [-Wbackend-plugin]
//
// The IR too, and under -flto (the link cannot run here: no sysroot):
// RUN: %clang --target=riscv64-linux-gnu -O2 -fpreserve-none-list=%t/list -fauto-preserve-none -S -emit-llvm %S/Inputs/target.c -o - 2> /dev/null | FileCheck %s --check-prefix=IR
// RUN: %clang --target=riscv64-linux-gnu -O2 -flto -fpreserve-none-list=%t/list -c %S/Inputs/target.c -o %t/lto.o 2>&1 | FileCheck %s --check-prefix=LTO --implicit-check-not=-Wbackend-plugin --implicit-check-not=error:
// IR-NOT: preserve_none
// IR: define {{.*}} @listed(
// IR-NOT: preserve_none
// LTO: warning: -fpreserve-none-list= does nothing on target 'riscv64-unknown-linux-gnu': cacs gives preserve_none on x86-64 and AArch64 only, and every function here keeps the C calling convention [-Wbackend-plugin]
