; Only the C convention and fastcc (which GlobalOpt gives internal functions
; before this pass runs) change; any other convention was asked for.
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

; CHECK-LABEL: define internal coldcc void @cold_fn(
; REMARK-DAG: remark: {{.*}}'cold_fn' calls preserve_none 'seed' but is not made preserve_none: it has an explicit calling convention (only C and fastcc change)
define internal coldcc void @cold_fn() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal preserve_mostcc void @most_fn(
; REMARK-DAG: remark: {{.*}}'most_fn' calls preserve_none 'seed' but is not made preserve_none: it has an explicit calling convention
define internal preserve_mostcc void @most_fn() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define void @entry(
; CHECK:         call preserve_nonecc void @c_fn()
; CHECK:         call preserve_nonecc void @fast_fn()
; CHECK:         call coldcc void @cold_fn()
; CHECK:         call preserve_mostcc void @most_fn()
define void @entry() {
  call void @c_fn()
  call fastcc void @fast_fn()
  call coldcc void @cold_fn()
  call preserve_mostcc void @most_fn()
  ret void
}
