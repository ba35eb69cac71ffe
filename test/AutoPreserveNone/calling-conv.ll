; Only the C convention, and fastcc and coldcc on internal functions (which
; GlobalOpt gives them before this pass runs), change; any other convention
; was asked for. The list pass has the same rule (one predicate,
; cacs::canTakePreserveNone): see PreserveNoneList/blocked.ll.
;
; RUN: %opt_cacs -passes=auto-preserve-none -S %s | FileCheck %s
; RUN: %opt_cacs -passes=auto-preserve-none -disable-output \
; RUN:   -pass-remarks-missed=auto-preserve-none %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REMARK

declare preserve_nonecc void @seed()

; CHECK-LABEL: define internal preserve_nonecc void @c_fn(
define internal void @c_fn() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal preserve_nonecc void @fast_fn(
define internal fastcc void @fast_fn() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal preserve_nonecc void @cold_fn(
define internal coldcc void @cold_fn() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal preserve_mostcc void @most_fn(
; REMARK-DAG: remark: {{.*}}'most_fn' calls preserve_none 'seed' but is not made preserve_none: it has another calling convention (preserve_mostcc)
define internal preserve_mostcc void @most_fn() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define void @entry(
; CHECK:         call preserve_nonecc void @c_fn()
; CHECK:         call preserve_nonecc void @fast_fn()
; CHECK:         call preserve_nonecc void @cold_fn()
; CHECK:         call preserve_mostcc void @most_fn()
define void @entry() {
  call void @c_fn()
  call fastcc void @fast_fn()
  call coldcc void @cold_fn()
  call preserve_mostcc void @most_fn()
  ret void
}
