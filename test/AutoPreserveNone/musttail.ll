; musttail needs the same convention at both ends, and the pass would change
; only one: a function that makes a musttail call, or is called by one, keeps
; its convention.
;
; RUN: %opt_cacs -passes=auto-preserve-none -S %s | FileCheck %s
; RUN: %opt_cacs -passes=auto-preserve-none -disable-output \
; RUN:   -pass-remarks-missed=auto-preserve-none %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REMARK

declare preserve_nonecc void @seed()
declare void @c_fn()

; It calls a seed and makes a musttail call to a C function.
; CHECK-LABEL: define internal void @makes_musttail(
; CHECK:         musttail call void @c_fn()
; REMARK-DAG: remark: {{.*}}'makes_musttail' calls preserve_none 'seed' but is not made preserve_none: it makes a musttail call
define internal void @makes_musttail() {
  call preserve_nonecc void @seed()
  musttail call void @c_fn()
  ret void
}

; It calls a seed; a C function reaches it by musttail.
; CHECK-LABEL: define internal void @musttail_callee(
; REMARK-DAG: remark: {{.*}}'musttail_callee' calls preserve_none 'seed' but is not made preserve_none: 'tail_caller' calls it with musttail
define internal void @musttail_callee() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define void @tail_caller(
; CHECK:         musttail call void @musttail_callee()
define void @tail_caller() {
  musttail call void @musttail_callee()
  ret void
}

; A plain tail call is fine.
; CHECK-LABEL: define internal preserve_nonecc void @tail_callee(
define internal void @tail_callee() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define void @plain_tail_caller(
; CHECK:         tail call preserve_nonecc void @tail_callee()
define void @plain_tail_caller() {
  tail call void @tail_callee()
  ret void
}

define void @entry() {
  call void @makes_musttail()
  ret void
}
