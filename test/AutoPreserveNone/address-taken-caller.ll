; A caller whose address is taken keeps the C convention (an indirect call
; could reach it), but what it calls is still infected, and its call sites of
; infected functions are rewritten.
;
; RUN: %opt_cacs -passes=auto-preserve-none -S %s | FileCheck %s

@handler = global ptr @top

declare preserve_nonecc void @seed()

; CHECK-LABEL: define internal preserve_nonecc void @mid(
define internal void @mid() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal void @top(
; CHECK:         call preserve_nonecc void @mid()
; CHECK:         call preserve_nonecc void @seed()
define internal void @top() {
  call void @mid()
  call preserve_nonecc void @seed()
  ret void
}

; @top's own caller is not reached through @top.
; CHECK-LABEL: define internal void @above_top(
; CHECK:         call void @top()
define internal void @above_top() {
  call void @top()
  ret void
}

define void @entry() {
  call void @above_top()
  ret void
}
