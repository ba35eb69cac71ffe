; A function that calls two seeds is decided once: it is infected once, and
; when it cannot be infected it is explained once.
;
; RUN: %opt_cacs -passes=auto-preserve-none -S %s | FileCheck %s
; RUN: %opt_cacs -passes=auto-preserve-none -disable-output \
; RUN:   -pass-remarks=auto-preserve-none \
; RUN:   -pass-remarks-missed=auto-preserve-none %s 2>&1 \
; RUN:   | env LC_ALL=C sort | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
;
; Every remark and no other, sorted: the pass visits functions in use-list order.
; REMARK: remark: {{.*}}'ext_both' calls preserve_none '{{seed1|seed2|both}}' but is not made preserve_none: it is visible outside the module
; REMARK-NEXT: remark: {{.*}}made 'both' preserve_none: it calls preserve_none 'seed{{[12]}}' (1 call site rewritten)

declare preserve_nonecc void @seed1()
declare preserve_nonecc void @seed2()

; CHECK-LABEL: define internal preserve_nonecc void @both(
; CHECK:         call preserve_nonecc void @seed1()
; CHECK:         call preserve_nonecc void @seed2()
define internal void @both() {
  call preserve_nonecc void @seed1()
  call preserve_nonecc void @seed2()
  ret void
}

; CHECK-LABEL: define void @ext_both(
define void @ext_both() {
  call preserve_nonecc void @seed1()
  call preserve_nonecc void @seed2()
  call void @both()
  ret void
}

