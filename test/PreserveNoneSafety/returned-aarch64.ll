; AArch64 lowers a call whose first argument is `returned` with the AAPCS
; "this return" register mask (x0 and x19-x28 kept across the call), wrong
; for preserve_none, whose first argument goes in x20 and which keeps
; neither. The final check removes `returned` from preserve_none functions'
; parameters and from the arguments of preserve_none calls, direct or not;
; C functions and calls keep it, and x86-64 modules are left alone
; (Hazards/aarch64-returned-argument.c runs programs).
;
; RUN: sed -e 's/TRIPLE/aarch64-unknown-linux-gnu/' %s | %opt_cacs -passes=preserve-none-safety -S | FileCheck %s --check-prefix=A64
; RUN: sed -e 's/TRIPLE/x86_64-unknown-linux-gnu/' %s | %opt_cacs -passes=preserve-none-safety -S | FileCheck %s --check-prefix=X86
; After the pass, llc keeps the caller's values out of x0 and x19-x28
; across the calls:
; RUN: sed -e 's/TRIPLE/aarch64-unknown-linux-gnu/' %s | %opt_cacs -passes=preserve-none-safety | llc -O2 -o - | FileCheck %s --check-prefix=ASM
; RUN: sed -e 's/TRIPLE/aarch64-unknown-linux-gnu/' %s | llc -O2 -o - | FileCheck %s --check-prefix=BROKEN

target triple = "TRIPLE"

; A64: declare preserve_nonecc i64 @ext(i64)
; X86: declare preserve_nonecc i64 @ext(i64 returned)
declare preserve_nonecc i64 @ext(i64 returned)

; A64: declare i64 @c_fn(i64 returned)
declare i64 @c_fn(i64 returned)

; A64-LABEL: define preserve_nonecc i64 @def(i64 %x) {
; X86-LABEL: define preserve_nonecc i64 @def(i64 returned %x) {
define preserve_nonecc i64 @def(i64 returned %x) {
  ret i64 %x
}

define i64 @caller(i64 %a, i64 %b, ptr %fp) {
; A64-LABEL: define i64 @caller(
; A64-NEXT:    %z = call preserve_nonecc i64 @ext(i64 1)
; A64-NEXT:    %y = call preserve_nonecc i64 %fp(i64 2)
; A64-NEXT:    %w = call i64 @c_fn(i64 returned 3)
; X86-LABEL: define i64 @caller(
; X86-NEXT:    %z = call preserve_nonecc i64 @ext(i64 returned 1)
; X86-NEXT:    %y = call preserve_nonecc i64 %fp(i64 returned 2)
  %z = call preserve_nonecc i64 @ext(i64 returned 1)
  %y = call preserve_nonecc i64 %fp(i64 returned 2)
  %w = call i64 @c_fn(i64 returned 3)
  %m = mul i64 %a, 3
  %s = add i64 %m, %b
  %t = add i64 %s, %z
  %u = add i64 %t, %y
  %r = add i64 %u, %w
  ret i64 %r
}

; Without the pass, llc keeps the pointer in x19 and a, b in x21, x22 across
; `bl ext`; with it, they are spilled and the pointer call is not `blr x19`.
; ASM-LABEL: caller:
; ASM: stp x0, x1, [sp
; ASM-NOT: blr x19
; ASM: .cfi_endproc
; BROKEN-LABEL: caller:
; BROKEN: mov x19, x2
; BROKEN: bl ext
; BROKEN-NOT: x19
; BROKEN: blr x19
