; The infection walks the call graph backwards from a seed through any number
; of levels: seed <- l1 <- l2 <- l3 <- l4, all internal. The walk stops at
; @entry, which is external, and its call site of @l4 is rewritten anyway.
; Also: a function that only reaches the seed through a C function that
; cannot be infected (@other -> @entry) is not infected.
;
; RUN: %opt_cacs -passes=auto-preserve-none -S %s | FileCheck %s

declare preserve_nonecc void @seed()

; CHECK-LABEL: define internal preserve_nonecc void @l1(
; CHECK:         call preserve_nonecc void @seed()
define internal void @l1() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal preserve_nonecc void @l2(
; CHECK:         call preserve_nonecc void @l1()
define internal void @l2() {
  call void @l1()
  ret void
}

; CHECK-LABEL: define internal preserve_nonecc void @l3(
; CHECK:         call preserve_nonecc void @l2()
define internal void @l3() {
  call void @l2()
  ret void
}

; CHECK-LABEL: define internal preserve_nonecc void @l4(
; CHECK:         call preserve_nonecc void @l3()
define internal void @l4() {
  call void @l3()
  ret void
}

; CHECK-LABEL: define void @entry(
; CHECK:         call preserve_nonecc void @l4()
define void @entry() {
  call void @l4()
  ret void
}

; CHECK-LABEL: define internal void @other(
; CHECK:         call void @entry()
define internal void @other() {
  call void @entry()
  ret void
}

; CHECK-LABEL: define void @root(
define void @root() {
  call void @other()
  ret void
}
