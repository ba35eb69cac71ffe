; AArch64: a preserve_none call whose caller reserves (-ffixed-xN,
; "+reserve-xN") a register the call passes an integer argument in: x20
; carries the first, x21 the second, x0 the tenth. The final check reports
; it; a call that reaches no reserved register is left alone
; (Hazards/aarch64-fixed-register.c runs a program), unless the register is
; one of x20-x28, which the C convention preserves (reserved-callee-saved.ll).
; opt stops at the first error: one function per run.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: cat %t/common.ll %t/x20.ll > %t/a.ll
; RUN: not %opt_cacs -passes=preserve-none-safety -disable-output %t/a.ll 2>&1 | FileCheck %s --check-prefix=X20 --implicit-check-not=error:
; RUN: cat %t/common.ll %t/x21.ll > %t/b.ll
; RUN: not %opt_cacs -passes=preserve-none-safety -disable-output %t/b.ll 2>&1 | FileCheck %s --check-prefix=X21 --implicit-check-not=error:
; RUN: cat %t/common.ll %t/x0.ll > %t/c.ll
; RUN: not %opt_cacs -passes=preserve-none-safety -disable-output %t/c.ll 2>&1 | FileCheck %s --check-prefix=X0 --implicit-check-not=error:
; RUN: cat %t/common.ll %t/x19.ll > %t/d.ll
; RUN: %opt_cacs -passes=preserve-none-safety -disable-output %t/d.ll 2>&1 | count 0
; X20: error: {{.*}}preserve_none call to 'one' in 'x20' passes its integer argument 1 in x20, which -ffixed-x20 reserves (for a global register variable, say); do not reserve x20 in code that calls preserve_none functions
; X21: error: {{.*}}preserve_none call to 'two' in 'x21' passes its integer argument 2 in x21, which -ffixed-x21 reserves
; X0: error: {{.*}}preserve_none call through a pointer in 'x0' passes its integer argument 10 in x0, which -ffixed-x0 reserves

;--- common.ll
target triple = "aarch64-unknown-linux-gnu"

declare preserve_nonecc void @one(i64)
declare preserve_nonecc void @two(i64, i64)
declare preserve_nonecc void @ten(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)

;--- x20.ll
define void @x20() "target-features"="+reserve-x20" {
  call preserve_nonecc void @one(i64 1)
  ret void
}

;--- x21.ll
define void @x21() "target-features"="+neon,+reserve-x21" {
  call preserve_nonecc void @two(i64 1, i64 2)
  ret void
}

;--- x0.ll
; The first call passes nothing in x0.
define void @x0(ptr %p) "target-features"="+reserve-x0" {
  call preserve_nonecc void @two(i64 1, i64 2)
  call preserve_nonecc void %p(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10)
  ret void
}

;--- x19.ll
; x19 carries no argument.
define void @x19() "target-features"="+reserve-x19" {
  call preserve_nonecc void @ten(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10)
  ret void
}
