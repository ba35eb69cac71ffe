; The per-TU run records -fauto-preserve-none on every definition (the
; full-LTO link reads it back), whether or not it infects anything;
; declarations get nothing. The LTO-link run adds nothing.
;
; RUN: %opt_cacs -passes=auto-preserve-none -S %s | FileCheck %s --check-prefix=PERTU
; RUN: %opt_cacs -passes='auto-preserve-none<lto>' -S %s | FileCheck %s --check-prefix=LTO

; PERTU: declare void @decl(){{$}}
declare void @decl()

; PERTU: define void @ext() [[ATTR:#[0-9]+]] {
; PERTU: define internal void @local() [[ATTR]] {
; PERTU: attributes [[ATTR]] = { "cacs-auto-preserve-none" }
; LTO-NOT: cacs-auto-preserve-none
define void @ext() {
  call void @decl()
  call void @local()
  ret void
}

define internal void @local() {
  ret void
}
