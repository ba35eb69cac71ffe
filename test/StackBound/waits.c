// An entry that yields and waits (libcacs's switches, whose budget
// cacs/detail/contract.h states) has a bound: its frames plus the budget;
// an entry that calls the C library has none, and the remark names the
// call; the same call moved to the system stack (CACS_ON_SYSTEM_STACK)
// costs the system stack call's budget, and its bound exists. x86-64, and
// AArch64 where it can link.
// RUN: rm -rf %t && mkdir %t
// RUN: for O in -O0 -O2; do \
// RUN:   %clang $O -fcacs-stack-bounds -Rpass=cacs-stack-bound \
// RUN:     -Rpass-missed=cacs-stack-bound -I%cacs_include %S/Inputs/waits.c \
// RUN:     %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t/prog 2>&1 | sort | \
// RUN:     FileCheck %s || exit 1; \
// RUN:   %t/prog | FileCheck %s --check-prefix=PROG || exit 1; \
// RUN: done
// Bound at load time: no lazy binding's resolver runs on a coroutine's
// stack inside a budget.
// RUN: llvm-readelf --dynamic-table %t/prog | FileCheck %s --check-prefix=NOW
// AArch64 at -O2 only: at -O0 its preserve_none calls go through the
// safety pass's shields, local code without a symbol of its own, which the
// walk does not follow (no bound there yet).
// RUN: %if qemu-aarch64 %{ for O in -O2; do \
// RUN:   %clang %aarch64_flags $O -fcacs-stack-bounds -Rpass=cacs-stack-bound \
// RUN:     -Rpass-missed=cacs-stack-bound -I%cacs_include %S/Inputs/waits.c \
// RUN:     %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %t/a64 2>&1 | sort | \
// RUN:     FileCheck %s || exit 1; \
// RUN:   %run_aarch64 %t/a64 | FileCheck %s --check-prefix=PROG || exit 1; \
// RUN: done %}
//
// Breaking it: without the budgets (the walk ignores their section), the
// entry that waits has no bound ('cacs__sleep_pn' has no frame size), and
// so has the one that moves its call to the system stack; with the red
// zone added to every bound (not a leaf's alone), `parks`'s bound is
// wrong on x86-64.

// Sorted: the link reports the entries in the order of their addresses.
// CHECK: remark: no stack bound for 'format_reply': 'format_reply': calls 'printf@plt', a function of a shared library (an external function) [-Rpass-missed=cacs-stack-bound]
// CHECK-NEXT: remark: no stack bound for 'prints': 'prints': calls 'printf@plt', a function of a shared library (an external function) [-Rpass-missed=cacs-stack-bound]
// CHECK-NEXT: remark: stack bound of 'on_system': {{[0-9]+}} bytes [-Rpass=cacs-stack-bound]
// CHECK-NEXT: remark: stack bound of 'parks': {{[0-9]+}} bytes [-Rpass=cacs-stack-bound]
// CHECK-NEXT: remark: stack bound of 'waits': {{[0-9]+}} bytes [-Rpass=cacs-stack-bound]
// CHECK-NOT: remark

// NOW: BIND_NOW

// PROG-DAG: waits: bound holds the switch budget
// PROG-DAG: on_system: bound holds the system stack's budget
// PROG-DAG: parks: bound is its frame and the park's budget
