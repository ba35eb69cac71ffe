; Only local definitions change: an external, linkonce_odr or weak function
; can be called from outside the module with the C convention; a weak one can
; also be replaced at link time. Internal and private ones are infected.
;
; RUN: %opt_cacs -passes=auto-preserve-none -S %s | FileCheck %s
; RUN: %opt_cacs -passes=auto-preserve-none -disable-output \
; RUN:   -pass-remarks-missed=auto-preserve-none %s 2>&1 \
; RUN:   | env LC_ALL=C sort | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
;
; Every remark and no other, sorted: the pass visits functions in use-list order.
; REMARK: remark: {{.*}}'external_fn' calls preserve_none 'seed' but is not made preserve_none: it is visible outside the module, where callers keep the C convention
; REMARK-NEXT: remark: {{.*}}'hidden_fn' calls preserve_none 'seed' but is not made preserve_none: it is visible outside the module
; REMARK-NEXT: remark: {{.*}}'odr_fn' calls preserve_none 'seed' but is not made preserve_none: it is visible outside the module
; REMARK-NEXT: remark: {{.*}}'weak_fn' calls preserve_none 'seed' but is not made preserve_none: it is interposable: another definition may replace it at link time

declare preserve_nonecc void @seed()

; CHECK-LABEL: define internal preserve_nonecc void @internal_fn(
define internal void @internal_fn() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define private preserve_nonecc void @private_fn(
define private void @private_fn() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define void @external_fn(
define void @external_fn() {
  call void @internal_fn()
  call void @private_fn()
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define linkonce_odr void @odr_fn(
define linkonce_odr void @odr_fn() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define weak void @weak_fn(
define weak void @weak_fn() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define hidden void @hidden_fn(
define hidden void @hidden_fn() {
  call preserve_nonecc void @seed()
  ret void
}
