; The C-convention body that the final check splits out of a preserve_none
; definition holds that definition's calls, and they are checked like any
; other: here an AArch64 optnone function (FastISel lowers it) with 18
; integer arguments and a patchable entry, whose body calls a preserve_none
; function: FastISel would pass the arguments in the C registers, so the
; body's call goes through a shield. The bodies were made after the calls
; had been visited, and their calls went unchecked: in the hazard matrix
; (x86-64 LLVM 19, lto-inline, a realigned dynamic frame split out of a
; listed function whose tail call then lost the base pointer) the program
; crashed.
;
; RUN: %opt_cacs -passes=preserve-none-safety -S %s | FileCheck %s

target triple = "aarch64-unknown-linux-gnu"

declare preserve_nonecc i64 @callee(i64, i64)

; CHECK-LABEL: define internal preserve_nonecc i64 @patched(
; CHECK-NEXT: entry:
; CHECK-NEXT: %18 = call i64 @patched.cacs.body(
define internal preserve_nonecc i64 @patched(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11, i64 %a12, i64 %a13, i64 %a14, i64 %a15, i64 %a16, i64 %a17, i64 %a18) noinline optnone "patchable-function-entry"="2" {
  %r = call preserve_nonecc i64 @callee(i64 %a1, i64 %a18)
  ret i64 %r
}

define i64 @use() {
  %1 = call preserve_nonecc i64 @patched(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15, i64 16, i64 17, i64 18)
  ret i64 %1
}

; CHECK-LABEL: define internal i64 @patched.cacs.body(
; CHECK-NEXT:    %r = call i64 @callee.cacs.shield(i64 %a1, i64 %a18)
; CHECK-NEXT:    ret i64 %r
