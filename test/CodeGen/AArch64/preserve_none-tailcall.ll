; Guards: tail calls involving preserve_nonecc on AArch64.
; * pn -> pn with `tail` and with `musttail` is a plain `b`: no frame, no
;   saves (not even LR), arguments shuffled in the preserve_none registers;
;   with stack arguments the incoming area is reused in place.
; * pn -> C with `tail` is a `b` too.
; * Without the `tail` marker llc emits `bl` even in tail position (and must
;   then save LR).
; * C -> pn with `tail` is NOT turned into a `b`: the C caller must restore
;   x19-x28/d8-d15 after the callee clobbered them.
; Identical on LLVM 19 and 22.
;
; RUN: llc -mtriple=aarch64-linux-gnu < %s | FileCheck %s

declare preserve_nonecc i64 @pn_target(i64, i64, i64)
declare void @c_target(i64)

define preserve_nonecc i64 @pn_to_pn_tail(i64 %a, i64 %b, i64 %c) nounwind {
; CHECK-LABEL: pn_to_pn_tail:
; CHECK-NEXT:  // %bb.0:
; CHECK-NEXT:    mov [[T:x[0-9]+]], x20
; CHECK-NEXT:    mov x20, x22
; CHECK-NEXT:    mov x22, [[T]]
; CHECK-NEXT:    b pn_target
  %r = tail call preserve_nonecc i64 @pn_target(i64 %c, i64 %b, i64 %a)
  ret i64 %r
}

define preserve_nonecc i64 @pn_to_pn_musttail(i64 %a, i64 %b, i64 %c) nounwind {
; CHECK-LABEL: pn_to_pn_musttail:
; CHECK-NEXT:  // %bb.0:
; CHECK-NEXT:    mov [[T:x[0-9]+]], x20
; CHECK-NEXT:    mov x20, x22
; CHECK-NEXT:    mov x22, [[T]]
; CHECK-NEXT:    b pn_target
  %r = musttail call preserve_nonecc i64 @pn_target(i64 %c, i64 %b, i64 %a)
  ret i64 %r
}

; 26 arguments: 25 and 26 live on the stack and are swapped in place.
declare preserve_nonecc i64 @pn_target26(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
define preserve_nonecc i64 @pn_musttail26(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11, i64 %a12, i64 %a13, i64 %a14, i64 %a15, i64 %a16, i64 %a17, i64 %a18, i64 %a19, i64 %a20, i64 %a21, i64 %a22, i64 %a23, i64 %a24, i64 %a25, i64 %a26) nounwind {
; CHECK-LABEL: pn_musttail26:
; CHECK-NEXT:  // %bb.0:
; CHECK-NEXT:    ldp [[A25:x[0-9]+]], [[A26:x[0-9]+]], [sp]
; CHECK-NEXT:    stp [[A26]], [[A25]], [sp]
; CHECK-NEXT:    b pn_target26
  %r = musttail call preserve_nonecc i64 @pn_target26(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11, i64 %a12, i64 %a13, i64 %a14, i64 %a15, i64 %a16, i64 %a17, i64 %a18, i64 %a19, i64 %a20, i64 %a21, i64 %a22, i64 %a23, i64 %a24, i64 %a26, i64 %a25)
  ret i64 %r
}

define preserve_nonecc void @pn_to_c_tail(i64 %a) nounwind {
; CHECK-LABEL: pn_to_c_tail:
; CHECK-NEXT:  // %bb.0:
; CHECK-NEXT:    mov x0, x20
; CHECK-NEXT:    b c_target
  tail call void @c_target(i64 %a)
  ret void
}

define preserve_nonecc i64 @pn_to_pn_no_marker(i64 %a, i64 %b, i64 %c) nounwind {
; CHECK-LABEL: pn_to_pn_no_marker:
; CHECK-NEXT:  // %bb.0:
; CHECK-NEXT:    str x30, [sp, #-16]!
; CHECK:         bl pn_target
; CHECK-NEXT:    ldr x30, [sp], #16
; CHECK-NEXT:    ret
  %r = call preserve_nonecc i64 @pn_target(i64 %c, i64 %b, i64 %a)
  ret i64 %r
}

define i64 @c_to_pn_tail(i64 %a, i64 %b, i64 %c) nounwind {
; CHECK-LABEL: c_to_pn_tail:
; CHECK:         stp x20, x19
; CHECK:         bl pn_target
; CHECK-NOT:     {{^[[:space:]]*b[[:space:]]}}
; CHECK:         ldp d15, d14, [sp], #160
; CHECK-NEXT:    ret
  %r = tail call preserve_nonecc i64 @pn_target(i64 %a, i64 %b, i64 %c)
  ret i64 %r
}
