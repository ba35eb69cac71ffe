; A variadic function is not infected: LLVM 19's x86-64 backend miscompiles
; variadic preserve_none functions (the va_list setup assumes the C argument
; registers).
;
; RUN: %opt_cacs -passes=auto-preserve-none -S %s | FileCheck %s
; RUN: %opt_cacs -passes=auto-preserve-none -disable-output \
; RUN:   -pass-remarks-missed=auto-preserve-none %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REMARK

declare preserve_nonecc void @seed()

; CHECK-LABEL: define internal void @variadic(i32 %n, ...)
; REMARK: remark: {{.*}}'variadic' calls preserve_none 'seed' but is not made preserve_none: it is variadic
define internal void @variadic(i32 %n, ...) {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal preserve_nonecc void @fixed(i32 %n)
define internal void @fixed(i32 %n) {
  call preserve_nonecc void @seed()
  ret void
}

define void @entry() {
  call void (i32, ...) @variadic(i32 1, i32 2)
  call void @fixed(i32 1)
  ret void
}
