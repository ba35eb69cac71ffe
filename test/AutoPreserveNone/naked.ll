; A naked function has no prologue the convention could shrink, and its body
; (inline assembly) follows whatever convention it was written for.
;
; RUN: %opt_cacs -passes=auto-preserve-none -S %s | FileCheck %s
; RUN: %opt_cacs -passes=auto-preserve-none -disable-output \
; RUN:   -pass-remarks-missed=auto-preserve-none %s 2>&1 \
; RUN:   | env LC_ALL=C sort | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
;
; Every remark and no other, sorted: the pass visits functions in use-list order.
; REMARK: remark: {{.*}}'entry' calls preserve_none 'clothed_fn' but is not made preserve_none: it is visible outside the module
; REMARK-NEXT: remark: {{.*}}'naked_fn' calls preserve_none 'seed' but is not made preserve_none: it is naked

declare preserve_nonecc void @seed()

; CHECK-LABEL: define internal void @naked_fn(
define internal void @naked_fn() naked {
  call preserve_nonecc void @seed()
  unreachable
}

; CHECK-LABEL: define internal preserve_nonecc void @clothed_fn(
define internal void @clothed_fn() {
  call preserve_nonecc void @seed()
  ret void
}

define void @entry() {
  call void @naked_fn()
  call void @clothed_fn()
  ret void
}
