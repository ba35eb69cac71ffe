; On x86-64, LLVM passes the variadic arguments of a preserve_none call in
; different registers from those the callee reads (test/CodeGen/X86/
; preserve_none-varargs.ll): cacs reports it. AArch64 falls back to the C
; registers on both sides, which is correct. (opt stops at the first error,
; so each case is a module of its own.)
;
; RUN: rm -rf %t && split-file %s %t
; RUN: sed -e 's/TRIPLE/x86_64-unknown-linux-gnu/' %t/direct.ll | not %opt_cacs -passes=preserve-none-safety -disable-output 2>&1 | FileCheck %s --check-prefix=DIRECT
; RUN: sed -e 's/TRIPLE/x86_64-unknown-linux-gnu/' %t/indirect.ll | not %opt_cacs -passes=preserve-none-safety -disable-output 2>&1 | FileCheck %s --check-prefix=INDIRECT
; RUN: sed -e 's/TRIPLE/aarch64-unknown-linux-gnu/' %t/direct.ll | %opt_cacs -passes=preserve-none-safety -disable-output 2>&1 | count 0
; RUN: sed -e 's/TRIPLE/aarch64-unknown-linux-gnu/' %t/indirect.ll | %opt_cacs -passes=preserve-none-safety -disable-output 2>&1 | count 0
; DIRECT: error: {{.*}}preserve_none function 'pn_vararg' is variadic, which LLVM miscompiles on x86-64
; INDIRECT: error: {{.*}}indirect preserve_none call in 'call_indirect' is variadic, which LLVM miscompiles on x86-64

;--- direct.ll
target triple = "TRIPLE"
declare preserve_nonecc void @pn_vararg(i64, ...)
define void @call_direct() {
  call preserve_nonecc void (i64, ...) @pn_vararg(i64 1, i64 2)
  ret void
}

;--- indirect.ll
target triple = "TRIPLE"
define void @call_indirect(ptr %f) {
  call preserve_nonecc void (i64, ...) %f(i64 1, i64 2)
  ret void
}
