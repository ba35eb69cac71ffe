; Guards: return-value registers of preserve_nonecc on x86-64. preserve_none
; only changes argument passing and the callee-saved set; results come back
; as in SysV: rax, then rdx, then rcx for wider integer aggregates, xmm0 for
; FP. Checked from both ends (callee producing, caller consuming).
; Identical on LLVM 19 and 22.
;
; RUN: llc -mtriple=x86_64-linux-gnu < %s | FileCheck %s

define preserve_nonecc i64 @ret_i64(i64 %a, i64 %b) nounwind {
; CHECK-LABEL: ret_i64:
; CHECK-NEXT:  # %bb.0:
; CHECK-NEXT:    leaq (%r12,%r13), %rax
; CHECK-NEXT:    retq
  %s = add i64 %a, %b
  ret i64 %s
}

; Swapped on purpose so each result needs its own move.
define preserve_nonecc { i64, i64 } @ret_pair(i64 %a, i64 %b) nounwind {
; CHECK-LABEL: ret_pair:
; CHECK-NEXT:  # %bb.0:
; CHECK-NEXT:    movq %r13, %rax
; CHECK-NEXT:    movq %r12, %rdx
; CHECK-NEXT:    retq
  %r0 = insertvalue { i64, i64 } undef, i64 %b, 0
  %r1 = insertvalue { i64, i64 } %r0, i64 %a, 1
  ret { i64, i64 } %r1
}

define preserve_nonecc { i64, i64, i64 } @ret_triple(i64 %a, i64 %b, i64 %c) nounwind {
; CHECK-LABEL: ret_triple:
; CHECK-NEXT:  # %bb.0:
; CHECK-NEXT:    movq %r14, %rax
; CHECK-NEXT:    movq %r13, %rdx
; CHECK-NEXT:    movq %r12, %rcx
; CHECK-NEXT:    retq
  %r0 = insertvalue { i64, i64, i64 } undef, i64 %c, 0
  %r1 = insertvalue { i64, i64, i64 } %r0, i64 %b, 1
  %r2 = insertvalue { i64, i64, i64 } %r1, i64 %a, 2
  ret { i64, i64, i64 } %r2
}

define preserve_nonecc double @ret_f64(double %x, double %y) nounwind {
; CHECK-LABEL: ret_f64:
; CHECK-NEXT:  # %bb.0:
; CHECK-NEXT:    addsd %xmm1, %xmm0
; CHECK-NEXT:    retq
  %s = fadd double %x, %y
  ret double %s
}

; Caller side: the pair is read straight out of rax/rdx after the call.
declare preserve_nonecc { i64, i64 } @get_pair()
define i64 @use_pair() nounwind {
; CHECK-LABEL: use_pair:
; CHECK:         callq get_pair@PLT
; CHECK-NEXT:    subq %rdx, %rax
  %p = call preserve_nonecc { i64, i64 } @get_pair()
  %a = extractvalue { i64, i64 } %p, 0
  %b = extractvalue { i64, i64 } %p, 1
  %s = sub i64 %a, %b
  ret i64 %s
}
