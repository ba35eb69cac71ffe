; main is never infected, even when it has local linkage: the C runtime calls
; it with the C convention.
;
; RUN: %opt_cacs -passes=auto-preserve-none -S %s | FileCheck %s
; RUN: %opt_cacs -passes=auto-preserve-none -disable-output \
; RUN:   -pass-remarks-missed=auto-preserve-none %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REMARK

declare preserve_nonecc void @seed()

; CHECK-LABEL: define internal i32 @main(
; CHECK-LABEL: define internal preserve_nonecc i32 @not_main(
; REMARK: remark: {{.*}}'main' calls preserve_none 'seed' but is not made preserve_none: it is 'main'
define internal i32 @main() {
  call preserve_nonecc void @seed()
  ret i32 0
}

define internal i32 @not_main() {
  call preserve_nonecc void @seed()
  ret i32 0
}

define i32 @entry() {
  %a = call i32 @main()
  %b = call i32 @not_main()
  ret i32 %b
}
