; Guards: what a caller does around a call to a preserve_nonecc function on
; x86-64.
; * A default-convention (SysV C) caller must still preserve its own
;   callee-saved registers rbx, r12-r15; the preserve_none call clobbers them,
;   so they are pushed/popped even when nothing is live across the call.
; * rbp is the one GPR preserve_none keeps, so an integer value live across
;   the call is kept in rbp (saved once in the prologue) instead of a stack
;   slot; a second one has to go to the stack.
; * FP values: xmm registers are all caller-saved in SysV anyway, so a live
;   double is spilled around the call.
; * A preserve_none caller has no callee-saved registers of its own besides
;   rbp, so it saves nothing else.
; Identical on LLVM 19 and 22.
;
; RUN: llc -mtriple=x86_64-linux-gnu < %s | FileCheck %s

declare preserve_nonecc void @pn_fn(i64)

define void @c_nothing_live(i64 %x) nounwind {
; CHECK-LABEL: c_nothing_live:
; CHECK-NEXT:  # %bb.0:
; CHECK-NEXT:    pushq %r15
; CHECK-NEXT:    pushq %r14
; CHECK-NEXT:    pushq %r13
; CHECK-NEXT:    pushq %r12
; CHECK-NEXT:    pushq %rbx
; CHECK-NEXT:    movq %rdi, %r12
; CHECK-NEXT:    callq pn_fn@PLT
; CHECK-NEXT:    popq %rbx
; CHECK-NEXT:    popq %r12
; CHECK-NEXT:    popq %r13
; CHECK-NEXT:    popq %r14
; CHECK-NEXT:    popq %r15
; CHECK-NEXT:    retq
  call preserve_nonecc void @pn_fn(i64 %x)
  ret void
}

define i64 @c_int_live(i64 %x, i64 %y) nounwind {
; CHECK-LABEL: c_int_live:
; CHECK-NEXT:  # %bb.0:
; CHECK-NEXT:    pushq %rbp
; CHECK-NEXT:    pushq %r15
; CHECK-NEXT:    pushq %r14
; CHECK-NEXT:    pushq %r13
; CHECK-NEXT:    pushq %r12
; CHECK-NEXT:    pushq %rbx
; CHECK-NEXT:    pushq %rax
; CHECK-NEXT:    movq %rdi, %rbp
; CHECK-NEXT:    movq %rsi, %r12
; CHECK-NEXT:    callq pn_fn@PLT
; CHECK-NEXT:    incq %rbp
; CHECK-NEXT:    movq %rbp, %rax
; CHECK-NOT:     Spill
; CHECK-NOT:     Reload
; CHECK:         retq
  call preserve_nonecc void @pn_fn(i64 %y)
  %s = add i64 %x, 1
  ret i64 %s
}

define i64 @c_double_live(i64 %x, double %d) nounwind {
; CHECK-LABEL: c_double_live:
; CHECK-NOT:     pushq %rbp
; CHECK:         movsd %xmm0, [[SLOT:[0-9]*\(%rsp\)]] # 8-byte Spill
; CHECK:         callq pn_fn@PLT
; CHECK-NEXT:    cvttsd2si [[SLOT]], %rax # 8-byte Folded Reload
  call preserve_nonecc void @pn_fn(i64 %x)
  %i = fptosi double %d to i64
  ret i64 %i
}

define preserve_nonecc i64 @pn_int_live(i64 %x, i64 %y) nounwind {
; CHECK-LABEL: pn_int_live:
; CHECK-NEXT:  # %bb.0:
; CHECK-NEXT:    pushq %rbp
; CHECK-NEXT:    movq %r12, %rbp
; CHECK-NEXT:    movq %r13, %r12
; CHECK-NEXT:    callq pn_fn@PLT
; CHECK-NEXT:    incq %rbp
; CHECK-NEXT:    movq %rbp, %rax
; CHECK-NEXT:    popq %rbp
; CHECK-NEXT:    retq
  call preserve_nonecc void @pn_fn(i64 %y)
  %s = add i64 %x, 1
  ret i64 %s
}

; Two values live across: one in rbp, the other in a stack slot.
define preserve_nonecc i64 @pn_two_live(i64 %x, i64 %y, i64 %z) nounwind {
; CHECK-LABEL: pn_two_live:
; CHECK-NEXT:  # %bb.0:
; CHECK-NEXT:    pushq %rbp
; CHECK-NEXT:    subq $16, %rsp
; CHECK-NEXT:    movq %r13, [[SLOT:[0-9]*\(%rsp\)]] # 8-byte Spill
; CHECK-NEXT:    movq %r12, %rbp
; CHECK-NEXT:    movq %r14, %r12
; CHECK-NEXT:    callq pn_fn@PLT
; CHECK-NEXT:    addq [[SLOT]], %rbp # 8-byte Folded Reload
; CHECK-NOT:     {{push|pop}}q {{%rbx|%r12|%r13|%r14|%r15}}
; CHECK:         retq
  call preserve_nonecc void @pn_fn(i64 %z)
  %s = add i64 %x, %y
  ret i64 %s
}
