; In the full-LTO link, functions are local after internalization, but only
; those compiled with -fauto-preserve-none (carrying the attribute) change;
; the others are explained. The per-TU run, which would add the attribute,
; infects them all.
;
; RUN: %opt_cacs -passes='auto-preserve-none<lto>' -S %s | FileCheck %s --check-prefix=LTO
; RUN: %opt_cacs -passes='auto-preserve-none<lto>' -disable-output \
; RUN:   -pass-remarks-missed=auto-preserve-none %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REMARK
; RUN: %opt_cacs -passes=auto-preserve-none -S %s | FileCheck %s --check-prefix=PERTU

declare preserve_nonecc void @seed()

; LTO-LABEL: define internal preserve_nonecc void @on(
; PERTU-LABEL: define internal preserve_nonecc void @on(
define internal void @on() #0 {
  call preserve_nonecc void @seed()
  ret void
}

; LTO-LABEL: define internal void @off(
; PERTU-LABEL: define internal preserve_nonecc void @off(
; REMARK: remark: {{.*}}'off' calls preserve_none 'seed' but is not made preserve_none: it was compiled without -fauto-preserve-none
define internal void @off() {
  call preserve_nonecc void @seed()
  ret void
}

; Infected through @on, across a function from an "on" TU.
; LTO-LABEL: define internal preserve_nonecc void @on_caller(
; LTO:         call preserve_nonecc void @on()
; LTO:         call void @off()
define internal void @on_caller() #0 {
  call void @on()
  call void @off()
  ret void
}

; LTO-LABEL: define i32 @main(
; LTO:         call preserve_nonecc void @on_caller()
define i32 @main() #0 {
  call void @on_caller()
  ret i32 0
}

attributes #0 = { "cacs-auto-preserve-none" }
