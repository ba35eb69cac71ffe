// Guards: __attribute__((preserve_none)) from C on AArch64 (clang -O2,
// aarch64-linux-gnu) gives the same backend properties as preserve_nonecc in
// IR:
//  * a preserve_none function saves none of x19-x28 / d8-d15;
//  * pn -> pn call in tail position is a `b` (clang marks it `tail`);
//  * arguments arrive in x20-x28, x0-x7, x10-x14, x9, x15, then the stack
//    (a17 in x7, a18 in x10, a23 in x9, a24 in x15, a25 at [sp]);
//  * a C caller still saves x19-x28, d8-d15 and x29/x30; the value live
//    across the call sits in x29 when frame pointers are off (NOFP) and in a
//    stack slot when x29 is the frame pointer (FP).
// Leaf functions get no frame record even with -fno-omit-frame-pointer
// (AArch64 clang omits leaf frame pointers). Identical with clang 19 and 22.
//
// RUN: %clang --target=aarch64-linux-gnu -O2 -fomit-frame-pointer \
// RUN:   -fno-asynchronous-unwind-tables -S -o - %s \
// RUN:   | FileCheck %s --check-prefixes=CHECK,NOFP
// RUN: %clang --target=aarch64-linux-gnu -O2 -fno-omit-frame-pointer \
// RUN:   -fno-asynchronous-unwind-tables -S -o - %s \
// RUN:   | FileCheck %s --check-prefixes=CHECK,FP

#define PN __attribute__((preserve_none))

PN long pn_target(long a, long b, long c);

// CHECK-LABEL: pn_leaf_clobber:
// CHECK-NEXT:  // %bb.0:
// CHECK-NOT:     {{stp|str|sub}}
// CHECK:         //APP
// CHECK-NEXT:    // clobber x19-x28 d8-d15
// CHECK-NEXT:    //NO_APP
// CHECK-NEXT:    ret
PN long pn_leaf_clobber(long a, long b) {
  long r;
  __asm__ volatile("// clobber x19-x28 d8-d15"
                   : "=r"(r)
                   : "r"(a), "r"(b)
                   : "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26",
                     "x27", "x28", "d8", "d9", "d10", "d11", "d12", "d13",
                     "d14", "d15");
  return r;
}

// CHECK-LABEL: pn_tail:
// CHECK-NEXT:  // %bb.0:
// CHECK-NEXT:    mov [[T:x[0-9]+]], x20
// CHECK-NEXT:    mov x20, x22
// CHECK-NEXT:    mov x22, [[T]]
// CHECK-NEXT:    b pn_target
PN long pn_tail(long a, long b, long c) { return pn_target(c, b, a); }

// CHECK-LABEL: c_caller:
// CHECK-DAG:     stp x20, x19, [sp
// CHECK-DAG:     stp x28, x27, [sp
// CHECK-DAG:     stp d9, d8, [sp
// CHECK-DAG:     stp d15, d14, [sp
// CHECK-DAG:     stp x29, x30, [sp
// CHECK-DAG:     mov x20, x0
// CHECK-DAG:     mov w21, #2
// CHECK-DAG:     mov w22, #3
// NOFP-DAG:      mov x29, x0
// FP-DAG:        str x0, [sp, #[[SLOT:[0-9]+]]]
// CHECK:         bl pn_target
// NOFP-NEXT:     add x0, x0, x29
// FP-NEXT:       ldr [[X:x[0-9]+]], [sp, #[[SLOT]]]
// FP:            add x0, x0, [[X]]
long c_caller(long x) { return pn_target(x, 2, 3) + x; }

// CHECK-LABEL: pn_args:
// CHECK-NEXT:  // %bb.0:
// CHECK-NEXT:    ldr [[A25:x[0-9]+]], [sp]
// CHECK-NEXT:    add [[S1:x[0-9]+]], x7, x10
// CHECK-NEXT:    add [[S2:x[0-9]+]], x9, x15
// CHECK-NEXT:    add [[S3:x[0-9]+]], [[S1]], [[S2]]
// CHECK-NEXT:    add [[S4:x[0-9]+]], [[S3]], [[A25]]
// CHECK-NEXT:    sub x0, x20, [[S4]]
// CHECK-NEXT:    ret
PN long pn_args(long a1, long a2, long a3, long a4, long a5, long a6, long a7,
                long a8, long a9, long a10, long a11, long a12, long a13,
                long a14, long a15, long a16, long a17, long a18, long a19,
                long a20, long a21, long a22, long a23, long a24, long a25) {
  return a1 - a17 - a18 - a23 - a24 - a25;
}
