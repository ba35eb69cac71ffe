; Guards: what a caller does around a call to a preserve_nonecc function on
; AArch64.
; * A default-convention (AAPCS64) caller must still preserve its own
;   callee-saved registers x19-x28 and d8-d15: the preserve_none call
;   clobbers all of them (d8-d15 included, see preserve_none-callee-saved.ll),
;   so all are saved even when nothing is live across the call.
; * x29 is preserved by preserve_none (it is in its save list), so without
;   frame pointers an integer value live across the call is kept in x29
;   (saved once, paired with x30) instead of a stack slot.
; * A live double has to be spilled to the stack: d8-d15 are not preserved.
; * A preserve_none caller saves only x29/x30; a second live value goes to
;   the stack.
; Saves are checked with CHECK-DAG (the scheduler interleaves them with
; argument set-up). Identical on LLVM 19 and 22 apart from asm comments
; ("Folded Spill" vs "Spill"), which are not checked.
;
; RUN: llc -mtriple=aarch64-linux-gnu < %s | FileCheck %s

declare preserve_nonecc void @pn_fn(i64)

define void @c_nothing_live(i64 %x) nounwind {
; CHECK-LABEL: c_nothing_live:
; CHECK-DAG:     stp d15, d14, [sp, #-160]!
; CHECK-DAG:     stp d13, d12, [sp, #16]
; CHECK-DAG:     stp d11, d10, [sp, #32]
; CHECK-DAG:     stp d9, d8, [sp, #48]
; CHECK-DAG:     str x30, [sp, #64]
; CHECK-DAG:     stp x28, x27, [sp, #80]
; CHECK-DAG:     stp x26, x25, [sp, #96]
; CHECK-DAG:     stp x24, x23, [sp, #112]
; CHECK-DAG:     stp x22, x21, [sp, #128]
; CHECK-DAG:     stp x20, x19, [sp, #144]
; CHECK-DAG:     mov x20, x0
; CHECK:         bl pn_fn
; CHECK:         ldp d15, d14, [sp], #160
; CHECK-NEXT:    ret
  call preserve_nonecc void @pn_fn(i64 %x)
  ret void
}

define i64 @c_int_live(i64 %x, i64 %y) nounwind {
; CHECK-LABEL: c_int_live:
; CHECK-DAG:     stp x29, x30, [sp, #64]
; CHECK-DAG:     mov x29, x0
; CHECK-DAG:     mov x20, x1
; CHECK-NOT:     str x0
; CHECK:         bl pn_fn
; CHECK-NEXT:    add x0, x29, #1
  call preserve_nonecc void @pn_fn(i64 %y)
  %s = add i64 %x, 1
  ret i64 %s
}

define i64 @c_double_live(i64 %x, double %d) nounwind {
; CHECK-LABEL: c_double_live:
; CHECK:         str d0, [sp, #[[SLOT:[0-9]+]]]
; CHECK-NEXT:    bl pn_fn
; CHECK-NEXT:    ldr d0, [sp, #[[SLOT]]]
  call preserve_nonecc void @pn_fn(i64 %x)
  %i = fptosi double %d to i64
  ret i64 %i
}

define preserve_nonecc i64 @pn_int_live(i64 %x, i64 %y) nounwind {
; CHECK-LABEL: pn_int_live:
; CHECK-NEXT:  // %bb.0:
; CHECK-NEXT:    stp x29, x30, [sp, #-16]!
; CHECK-NEXT:    mov x29, x20
; CHECK-NEXT:    mov x20, x21
; CHECK-NEXT:    bl pn_fn
; CHECK-NEXT:    add x0, x29, #1
; CHECK-NEXT:    ldp x29, x30, [sp], #16
; CHECK-NEXT:    ret
  call preserve_nonecc void @pn_fn(i64 %y)
  %s = add i64 %x, 1
  ret i64 %s
}

define preserve_nonecc i64 @pn_two_live(i64 %x, i64 %y, i64 %z) nounwind {
; CHECK-LABEL: pn_two_live:
; CHECK-NEXT:  // %bb.0:
; CHECK-NEXT:    sub sp, sp, #32
; CHECK-NEXT:    stp x29, x30, [sp, #16]
; CHECK-NEXT:    mov x29, x20
; CHECK-NEXT:    mov x20, x22
; CHECK-NEXT:    str x21, [sp, #8]
; CHECK-NEXT:    bl pn_fn
; CHECK-NEXT:    ldr [[Y:x[0-9]+]], [sp, #8]
; CHECK-NEXT:    add x0, x29, [[Y]]
; CHECK-NEXT:    ldp x29, x30, [sp, #16]
; CHECK-NEXT:    add sp, sp, #32
; CHECK-NEXT:    ret
  call preserve_nonecc void @pn_fn(i64 %z)
  %s = add i64 %x, %y
  ret i64 %s
}
