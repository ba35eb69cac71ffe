// Guards: __attribute__((preserve_none)) from C on x86-64 (clang -O2) gives
// the same backend properties as preserve_nonecc in IR:
//  * a preserve_none function saves none of rbx/r12-r15 (only rbp, and only
//    as frame pointer when frame pointers are on);
//  * a call in tail position between preserve_none functions is a jmp
//    (clang marks it `tail`; with frame pointers the frame is torn down
//    first);
//  * arguments arrive in r12, r13, r14, r15, rdi, rsi, rdx, rcx, r8, r9, r11,
//    rax, then on the stack;
//  * a C caller still saves its own callee-saved registers around the call;
//    a value live across the call sits in rbp (NOFP) or in a frame slot (FP,
//    where rbp is the frame pointer).
// Identical with clang 19 and 22.
//
// RUN: %clang --target=x86_64-linux-gnu -O2 -fomit-frame-pointer \
// RUN:   -fno-asynchronous-unwind-tables -S -o - %s \
// RUN:   | FileCheck %s --check-prefixes=CHECK,NOFP
// RUN: %clang --target=x86_64-linux-gnu -O2 -fno-omit-frame-pointer \
// RUN:   -fno-asynchronous-unwind-tables -S -o - %s \
// RUN:   | FileCheck %s --check-prefixes=CHECK,FP

#define PN __attribute__((preserve_none))

PN long pn_target(long a, long b, long c);

// CHECK-LABEL: pn_leaf_clobber:
// CHECK-NEXT:  # %bb.0:
// FP-NEXT:       pushq %rbp
// FP-NEXT:       movq %rsp, %rbp
// CHECK-NOT:     {{push|pop}}
// CHECK:         #APP
// CHECK-NEXT:    # clobber rbx r12 r13 r14 r15
// CHECK-NEXT:    #NO_APP
// FP-NEXT:       popq %rbp
// CHECK-NEXT:    retq
PN long pn_leaf_clobber(long a, long b) {
  long r;
  __asm__ volatile("# clobber rbx r12 r13 r14 r15"
                   : "=r"(r)
                   : "r"(a), "r"(b)
                   : "rbx", "r12", "r13", "r14", "r15");
  return r;
}

// CHECK-LABEL: pn_tail:
// CHECK-NEXT:  # %bb.0:
// FP-NEXT:       pushq %rbp
// FP-NEXT:       movq %rsp, %rbp
// CHECK-NEXT:    movq %r12, [[T:%r[a-z0-9]+]]
// CHECK-NEXT:    movq %r14, %r12
// CHECK-NEXT:    movq [[T]], %r14
// FP-NEXT:       popq %rbp
// CHECK-NEXT:    jmp pn_target@PLT # TAILCALL
PN long pn_tail(long a, long b, long c) { return pn_target(c, b, a); }

// CHECK-LABEL: c_caller:
// CHECK-NEXT:  # %bb.0:
// CHECK-NEXT:    pushq %rbp
// FP-NEXT:       movq %rsp, %rbp
// CHECK-NEXT:    pushq %r15
// CHECK-NEXT:    pushq %r14
// CHECK-NEXT:    pushq %r13
// CHECK-NEXT:    pushq %r12
// CHECK-NEXT:    pushq %rbx
// NOFP:          movq %rdi, %rbp
// FP:            movq %rdi, [[SLOT:-[0-9]+\(%rbp\)]] # 8-byte Spill
// CHECK:         movq %rdi, %r12
// CHECK-NEXT:    callq pn_target@PLT
// NOFP-NEXT:     addq %rbp, %rax
// FP-NEXT:       addq [[SLOT]], %rax # 8-byte Folded Reload
long c_caller(long x) { return pn_target(x, 2, 3) + x; }

// a1 in r12, a12 in rax, a13 on the stack.
// CHECK-LABEL: pn_args:
// NOFP:          addq 8(%rsp), %rax
// FP:            addq 16(%rbp), %rax
// CHECK-NEXT:    subq %rax, %r12
// CHECK-NEXT:    movq %r12, %rax
PN long pn_args(long a1, long a2, long a3, long a4, long a5, long a6, long a7,
                long a8, long a9, long a10, long a11, long a12, long a13) {
  return a1 - a12 - a13;
}
