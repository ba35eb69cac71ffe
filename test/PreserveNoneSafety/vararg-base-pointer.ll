; A variadic preserve_none call from a function that may use a base pointer
; cannot go through a shield (only musttail forwards variadic arguments, and
; a tail call saves nothing): on AArch64 that is an error, not a silent
; miscompile.
; RUN: not %opt_cacs -passes=preserve-none-safety -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}'needs_bp' addresses its stack frame through a base pointer, which this preserve_none call does not preserve, and cacs cannot route this call through a shield (variadic, musttail or operand bundles)

target triple = "aarch64-unknown-linux-gnu"

declare preserve_nonecc void @pn_vararg(i64, ...)

define void @needs_bp(i64 %n) {
  %dyn = alloca i8, i64 %n
  call preserve_nonecc void (i64, ...) @pn_vararg(i64 %n, i64 2)
  ret void
}
