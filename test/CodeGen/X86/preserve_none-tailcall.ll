; Guards: tail calls involving preserve_nonecc on x86-64.
; * pn -> pn with `tail` and with `musttail` is a plain jmp: no frame, no
;   saves, arguments shuffled in the preserve_none registers.
; * pn -> C with `tail` is a jmp too (a preserve_none function has nothing to
;   restore, so it can jump to a function with a larger saved set).
; * Without the `tail` marker llc emits a call even in tail position
;   (clang -O2 adds `tail` itself, see preserve_none-c.c).
; * C -> pn with `tail` is NOT turned into a jmp: the C caller must restore
;   rbx/r12-r15 after the callee clobbered them.
; Identical on LLVM 19 and 22.
;
; RUN: llc -mtriple=x86_64-linux-gnu < %s | FileCheck %s

declare preserve_nonecc i64 @pn_target(i64, i64, i64)
declare void @c_target(i64)

define preserve_nonecc i64 @pn_to_pn_tail(i64 %a, i64 %b, i64 %c) nounwind {
; CHECK-LABEL: pn_to_pn_tail:
; CHECK-NEXT:  # %bb.0:
; CHECK-NEXT:    movq %r12, %rax
; CHECK-NEXT:    movq %r14, %r12
; CHECK-NEXT:    movq %rax, %r14
; CHECK-NEXT:    jmp pn_target@PLT # TAILCALL
  %r = tail call preserve_nonecc i64 @pn_target(i64 %c, i64 %b, i64 %a)
  ret i64 %r
}

define preserve_nonecc i64 @pn_to_pn_musttail(i64 %a, i64 %b, i64 %c) nounwind {
; CHECK-LABEL: pn_to_pn_musttail:
; CHECK-NEXT:  # %bb.0:
; CHECK-NEXT:    movq %r12, %rax
; CHECK-NEXT:    movq %r14, %r12
; CHECK-NEXT:    movq %rax, %r14
; CHECK-NEXT:    jmp pn_target@PLT # TAILCALL
  %r = musttail call preserve_nonecc i64 @pn_target(i64 %c, i64 %b, i64 %a)
  ret i64 %r
}

; musttail with stack-passed arguments (more than 12 integer args): the
; incoming stack area is reused, still no frame.
declare preserve_nonecc i64 @pn_target14(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
define preserve_nonecc i64 @pn_musttail14(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11, i64 %a12, i64 %a13, i64 %a14) nounwind {
; CHECK-LABEL: pn_musttail14:
; CHECK-NEXT:  # %bb.0:
; CHECK-NEXT:    movq 8(%rsp), [[A13:%r[a-z0-9]+]]
; CHECK-NEXT:    movq 16(%rsp), [[A14:%r[a-z0-9]+]]
; CHECK-NEXT:    movq [[A14]], 8(%rsp)
; CHECK-NEXT:    movq [[A13]], 16(%rsp)
; CHECK-NEXT:    jmp pn_target14@PLT # TAILCALL
  %r = musttail call preserve_nonecc i64 @pn_target14(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11, i64 %a12, i64 %a14, i64 %a13)
  ret i64 %r
}

define preserve_nonecc void @pn_to_c_tail(i64 %a) nounwind {
; CHECK-LABEL: pn_to_c_tail:
; CHECK-NEXT:  # %bb.0:
; CHECK-NEXT:    movq %r12, %rdi
; CHECK-NEXT:    jmp c_target@PLT # TAILCALL
  tail call void @c_target(i64 %a)
  ret void
}

define preserve_nonecc i64 @pn_to_pn_no_marker(i64 %a, i64 %b, i64 %c) nounwind {
; CHECK-LABEL: pn_to_pn_no_marker:
; CHECK:         callq pn_target@PLT
; CHECK-NOT:     jmp
; CHECK:         retq
  %r = call preserve_nonecc i64 @pn_target(i64 %c, i64 %b, i64 %a)
  ret i64 %r
}

define i64 @c_to_pn_tail(i64 %a, i64 %b, i64 %c) nounwind {
; CHECK-LABEL: c_to_pn_tail:
; CHECK:         pushq %rbx
; CHECK:         callq pn_target@PLT
; CHECK-NEXT:    popq %rbx
; CHECK-NOT:     jmp
; CHECK:         retq
  %r = tail call preserve_nonecc i64 @pn_target(i64 %a, i64 %b, i64 %c)
  ret i64 %r
}
