// Each way to break a stack bound leaves its entry without one, and the
// remark names the function that breaks it; an entry whose whole call tree
// the link sees gets a bound. x86-64, and AArch64 where it can link.
// RUN: rm -rf %t && mkdir %t
// RUN: for O in -O0 -O2; do \
// RUN:   %clang $O -fcacs-stack-bounds -Rpass=cacs-stack-bound \
// RUN:     -Rpass-missed=cacs-stack-bound %S/Inputs/breakers.c -o %t/prog 2>&1 | sort | \
// RUN:     FileCheck %s || exit 1; \
// RUN: done
// RUN: %if qemu-aarch64 %{ for O in -O0 -O2; do \
// RUN:   %clang %aarch64_flags $O -fcacs-stack-bounds -Rpass=cacs-stack-bound \
// RUN:     -Rpass-missed=cacs-stack-bound %S/Inputs/breakers.c -o %t/a64 2>&1 | sort | \
// RUN:     FileCheck %s || exit 1; \
// RUN: done %}

// Sorted: the link reports the entries in the order of their addresses.
// CHECK: remark: no stack bound for 'callback': 'apply' makes an indirect call (a function pointer or a callback) [-Rpass-missed=cacs-stack-bound]
// CHECK-NEXT: remark: no stack bound for 'dynamic_alloca': 'dynamic_alloca' allocates stack dynamically (a variable-length array or alloca) [-Rpass-missed=cacs-stack-bound]
// CHECK-NEXT: remark: no stack bound for 'external': 'external': calls 'puts@plt', a function of a shared library (an external function) [-Rpass-missed=cacs-stack-bound]
// CHECK-NEXT: remark: no stack bound for 'function_pointer': 'function_pointer' makes an indirect call (a function pointer or a callback) [-Rpass-missed=cacs-stack-bound]
// CHECK-NEXT: remark: no stack bound for 'recursion': 'fib' calls itself (recursion) [-Rpass-missed=cacs-stack-bound]
// CHECK-NEXT: remark: no stack bound for 'vla': 'vla' allocates stack dynamically (a variable-length array or alloca) [-Rpass-missed=cacs-stack-bound]
// The callback itself is an entry too (its address is taken): a leaf,
// without a frame on AArch64.
// CHECK-NEXT: remark: stack bound of 'add': {{[0-9]+}} bytes [-Rpass=cacs-stack-bound]
// CHECK-NEXT: remark: stack bound of 'bounded': {{[1-9][0-9]+}} bytes [-Rpass=cacs-stack-bound]
// CHECK-NOT: remark
