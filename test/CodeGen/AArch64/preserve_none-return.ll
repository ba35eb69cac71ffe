; Guards: return-value registers of preserve_nonecc on AArch64. preserve_none
; changes argument passing and the callee-saved set only; results come back
; as in AAPCS64: x0, x1, x2, ... for integers, d0 for double. Checked from
; both ends. Identical on LLVM 19 and 22.
;
; RUN: llc -mtriple=aarch64-linux-gnu < %s | FileCheck %s

define preserve_nonecc i64 @ret_i64(i64 %a, i64 %b) nounwind {
; CHECK-LABEL: ret_i64:
; CHECK-NEXT:  // %bb.0:
; CHECK-NEXT:    add x0, x20, x21
; CHECK-NEXT:    ret
  %s = add i64 %a, %b
  ret i64 %s
}

; Swapped on purpose so each result needs its own move.
define preserve_nonecc { i64, i64 } @ret_pair(i64 %a, i64 %b) nounwind {
; CHECK-LABEL: ret_pair:
; CHECK-NEXT:  // %bb.0:
; CHECK-NEXT:    mov x0, x21
; CHECK-NEXT:    mov x1, x20
; CHECK-NEXT:    ret
  %r0 = insertvalue { i64, i64 } undef, i64 %b, 0
  %r1 = insertvalue { i64, i64 } %r0, i64 %a, 1
  ret { i64, i64 } %r1
}

define preserve_nonecc { i64, i64, i64 } @ret_triple(i64 %a, i64 %b, i64 %c) nounwind {
; CHECK-LABEL: ret_triple:
; CHECK-NEXT:  // %bb.0:
; CHECK-NEXT:    mov x0, x22
; CHECK-NEXT:    mov x1, x21
; CHECK-NEXT:    mov x2, x20
; CHECK-NEXT:    ret
  %r0 = insertvalue { i64, i64, i64 } undef, i64 %c, 0
  %r1 = insertvalue { i64, i64, i64 } %r0, i64 %b, 1
  %r2 = insertvalue { i64, i64, i64 } %r1, i64 %a, 2
  ret { i64, i64, i64 } %r2
}

define preserve_nonecc double @ret_f64(double %x, double %y) nounwind {
; CHECK-LABEL: ret_f64:
; CHECK-NEXT:  // %bb.0:
; CHECK-NEXT:    fadd d0, d0, d1
; CHECK-NEXT:    ret
  %s = fadd double %x, %y
  ret double %s
}

; Caller side: the pair is read straight out of x0/x1 after the call.
declare preserve_nonecc { i64, i64 } @get_pair()
define i64 @use_pair() nounwind {
; CHECK-LABEL: use_pair:
; CHECK:         bl get_pair
; CHECK-NOT:     x0
; CHECK:         sub x0, x0, x1
  %p = call preserve_nonecc { i64, i64 } @get_pair()
  %a = extractvalue { i64, i64 } %p, 0
  %b = extractvalue { i64, i64 } %p, 1
  %s = sub i64 %a, %b
  ret i64 %s
}
