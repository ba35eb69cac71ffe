; A shield cannot forward variadic arguments, and AArch64 FastISel leaves
; variadic calls to SelectionDAG: a variadic preserve_none call of an optnone
; function stays as it is. (Shielding it once dropped the variadic arguments;
; test/Reliability/variadic-preserve-none-aarch64-run.c runs that case.)
; RUN: %opt_cacs -passes=preserve-none-safety -S %s | FileCheck %s

target triple = "aarch64-unknown-linux-gnu"

declare preserve_nonecc i64 @pn_vararg(i64, ...)

define i64 @optnone_vararg(i64 %x) noinline optnone {
; CHECK-LABEL: define i64 @optnone_vararg(
; CHECK: %r = call preserve_nonecc i64 (i64, ...) @pn_vararg(i64 %x, i64 1)
  %r = call preserve_nonecc i64 (i64, ...) @pn_vararg(i64 %x, i64 1)
  ret i64 %r
}
; CHECK-NOT: cacs.shield
