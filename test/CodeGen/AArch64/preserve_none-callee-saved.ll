; Guards: a preserve_nonecc function on AArch64 saves none of the AAPCS64
; callee-saved registers x19-x28 and d8-d15. Upstream's save list for
; preserve_none on AArch64 contains only the frame record registers (x29/FP,
; x30/LR): LR is saved only when the function makes a call, FP only when a
; frame pointer is requested or when the register allocator actually uses x29
; / x30 as ordinary registers (see @pressure).
; Note: d8-d15 are NOT preserved either (observed on LLVM 19 and 22), even
; though the clang documentation says preserve_none does not affect
; floating-point registers; callers spill d8-d15 around preserve_none calls
; accordingly (see preserve_none-caller.ll), so this is consistent.
;
; Exact prologue/epilogue checks (CHECK-NEXT from the label): if the save list
; grew (e.g. to the AAPCS64 list), stp of x19-x28/d8-d15 would appear after
; "// %bb.0:" and the checks fail. Checked by hand: rewriting preserve_nonecc
; to ccc in a scratch copy makes FileCheck fail on every function.
; `nounwind` keeps .cfi directives out. Identical on LLVM 19 and 22.
;
; RUN: llc -mtriple=aarch64-linux-gnu < %s | FileCheck %s

declare void @ext()
@g = dso_local global [32 x i64] zeroinitializer

define preserve_nonecc void @clobber_aapcs_csrs() nounwind {
; CHECK-LABEL: clobber_aapcs_csrs:
; CHECK-NEXT:  // %bb.0:
; CHECK-NEXT:    //APP
; CHECK-NEXT:    // clobber x19-x28 d8-d15
; CHECK-NEXT:    //NO_APP
; CHECK-NEXT:    ret
  call void asm sideeffect "# clobber x19-x28 d8-d15", "~{x19},~{x20},~{x21},~{x22},~{x23},~{x24},~{x25},~{x26},~{x27},~{x28},~{d8},~{d9},~{d10},~{d11},~{d12},~{d13},~{d14},~{d15}"()
  ret void
}

; Non-leaf: only LR is saved, for the call itself.
define preserve_nonecc void @non_leaf() nounwind {
; CHECK-LABEL: non_leaf:
; CHECK-NEXT:  // %bb.0:
; CHECK-NEXT:    str x30, [sp, #-16]!
; CHECK-NEXT:    //APP
; CHECK-NEXT:    // clobber x19-x28 d8-d15
; CHECK-NEXT:    //NO_APP
; CHECK-NEXT:    bl ext
; CHECK-NEXT:    ldr x30, [sp], #16
; CHECK-NEXT:    ret
  call void asm sideeffect "# clobber x19-x28 d8-d15", "~{x19},~{x20},~{x21},~{x22},~{x23},~{x24},~{x25},~{x26},~{x27},~{x28},~{d8},~{d9},~{d10},~{d11},~{d12},~{d13},~{d14},~{d15}"()
  call void @ext()
  ret void
}

; Frame pointers on: the frame record is the whole prologue.
define preserve_nonecc void @frame_pointer_all() nounwind "frame-pointer"="all" {
; CHECK-LABEL: frame_pointer_all:
; CHECK-NEXT:  // %bb.0:
; CHECK-NEXT:    stp x29, x30, [sp, #-16]!
; CHECK-NEXT:    mov x29, sp
; CHECK-NEXT:    //APP
; CHECK-NEXT:    // clobber x19-x28 d8-d15
; CHECK-NEXT:    //NO_APP
; CHECK-NEXT:    ldp x29, x30, [sp], #16
; CHECK-NEXT:    ret
  call void asm sideeffect "# clobber x19-x28 d8-d15", "~{x19},~{x20},~{x21},~{x22},~{x23},~{x24},~{x25},~{x26},~{x27},~{x28},~{d8},~{d9},~{d10},~{d11},~{d12},~{d13},~{d14},~{d15}"()
  ret void
}

; 31 values live at once: every allocatable GPR is used, including x19-x28
; and x29/x30. Only x29 and x30 are saved.
define preserve_nonecc void @pressure() nounwind {
; CHECK-LABEL: pressure:
; CHECK-NEXT:  // %bb.0:
; CHECK-NEXT:    sub sp, sp, #32
; CHECK-NEXT:    stp x29, x30, [sp, #16]
; CHECK-NOT:     {{stp|str}} {{x19|x2[0-8]|d[0-9]+}}, [sp
; CHECK:         ldp x29, x30, [sp, #16]
; CHECK-NEXT:    add sp, sp, #32
; CHECK-NEXT:    ret
  %v0 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 0)
  %v1 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 1)
  %v2 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 2)
  %v3 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 3)
  %v4 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 4)
  %v5 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 5)
  %v6 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 6)
  %v7 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 7)
  %v8 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 8)
  %v9 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 9)
  %v10 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 10)
  %v11 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 11)
  %v12 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 12)
  %v13 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 13)
  %v14 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 14)
  %v15 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 15)
  %v16 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 16)
  %v17 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 17)
  %v18 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 18)
  %v19 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 19)
  %v20 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 20)
  %v21 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 21)
  %v22 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 22)
  %v23 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 23)
  %v24 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 24)
  %v25 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 25)
  %v26 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 26)
  %v27 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 27)
  %v28 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 28)
  %v29 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 29)
  %v30 = load volatile i64, ptr getelementptr inbounds ([32 x i64], ptr @g, i64 0, i64 30)
  store volatile i64 %v0, ptr @g
  store volatile i64 %v1, ptr @g
  store volatile i64 %v2, ptr @g
  store volatile i64 %v3, ptr @g
  store volatile i64 %v4, ptr @g
  store volatile i64 %v5, ptr @g
  store volatile i64 %v6, ptr @g
  store volatile i64 %v7, ptr @g
  store volatile i64 %v8, ptr @g
  store volatile i64 %v9, ptr @g
  store volatile i64 %v10, ptr @g
  store volatile i64 %v11, ptr @g
  store volatile i64 %v12, ptr @g
  store volatile i64 %v13, ptr @g
  store volatile i64 %v14, ptr @g
  store volatile i64 %v15, ptr @g
  store volatile i64 %v16, ptr @g
  store volatile i64 %v17, ptr @g
  store volatile i64 %v18, ptr @g
  store volatile i64 %v19, ptr @g
  store volatile i64 %v20, ptr @g
  store volatile i64 %v21, ptr @g
  store volatile i64 %v22, ptr @g
  store volatile i64 %v23, ptr @g
  store volatile i64 %v24, ptr @g
  store volatile i64 %v25, ptr @g
  store volatile i64 %v26, ptr @g
  store volatile i64 %v27, ptr @g
  store volatile i64 %v28, ptr @g
  store volatile i64 %v29, ptr @g
  store volatile i64 %v30, ptr @g
  ret void
}
