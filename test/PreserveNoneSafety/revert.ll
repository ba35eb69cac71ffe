; The final check reverts a function APN infected (cacs-apn-infected) that is
; no longer eligible, here after inlining gave it a dynamic alloca, to the C
; convention with every call of it; a preserve_none function from the source
; (no marker) is not APN's to revert. Its own preserve_none call is then
; checked as a C caller's: it goes through a shield (x86-64 before LLVM 22,
; AArch64).
;
; RUN: sed 's/TRIPLE/aarch64-unknown-linux-gnu/' %s | %opt_cacs -passes=preserve-none-safety -S -pass-remarks=preserve-none-safety 2>%t.remarks | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: sed 's/TRIPLE/x86_64-unknown-linux-gnu/' %s | %opt_cacs -passes=preserve-none-safety -S | FileCheck %s --check-prefix=X86

target triple = "TRIPLE"

declare preserve_nonecc i64 @leaf(i64)

; REMARK: remark: {{.*}}'infected' is made C again: it allocates stack dynamically
; CHECK-LABEL: define internal i64 @infected(i64 %n) {
; CHECK-NEXT: %vla = alloca i8, i64 %n
; CHECK-NEXT: call void @use(ptr %vla)
; CHECK-NEXT: %r = call i64 @leaf.cacs.shield(i64 %n)
; CHECK-NEXT: ret i64 %r
; X86-LABEL: define internal i64 @infected(
define internal preserve_nonecc i64 @infected(i64 %n) "cacs-apn-infected" {
  %vla = alloca i8, i64 %n
  call void @use(ptr %vla)
  %r = call preserve_nonecc i64 @leaf(i64 %n)
  ret i64 %r
}

; Still eligible: stays preserve_none.
; CHECK-LABEL: define internal preserve_nonecc i64 @still_fine(
define internal preserve_nonecc i64 @still_fine(i64 %n) "cacs-apn-infected" {
  %r = call preserve_nonecc i64 @leaf(i64 %n)
  ret i64 %r
}

; From the source: not reverted.
; CHECK-LABEL: define internal preserve_nonecc i64 @written(
; X86-LABEL: define internal preserve_nonecc i64 @written(
define internal preserve_nonecc i64 @written(i64 %n) {
  %vla = alloca i8, i64 %n
  call void @use(ptr %vla)
  ret i64 %n
}

declare void @use(ptr)

; CHECK-LABEL: define i64 @caller(
; CHECK-NEXT: %a = call i64 @infected(i64 %n)
; CHECK-NEXT: %b = call preserve_nonecc i64 @still_fine(i64 %n)
; CHECK-NEXT: %c = call preserve_nonecc i64 @written(i64 %n)
; X86-LABEL: define i64 @caller(
; X86-NEXT: %a = call i64 @infected(i64 %n)
define i64 @caller(i64 %n) {
  %a = call preserve_nonecc i64 @infected(i64 %n)
  %b = call preserve_nonecc i64 @still_fine(i64 %n)
  %c = call preserve_nonecc i64 @written(i64 %n)
  %s = add i64 %a, %b
  %t = add i64 %s, %c
  ret i64 %t
}
