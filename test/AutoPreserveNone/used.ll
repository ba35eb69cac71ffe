; Functions in llvm.used or llvm.compiler.used must stay as they are: code the
; compiler does not see may call them.
;
; RUN: %opt_cacs -passes=auto-preserve-none -S %s | FileCheck %s
; RUN: %opt_cacs -passes=auto-preserve-none -disable-output \
; RUN:   -pass-remarks-missed=auto-preserve-none %s 2>&1 \
; RUN:   | env LC_ALL=C sort | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
;
; Every remark and no other, sorted: the pass visits functions in use-list order.
; REMARK: remark: {{.*}}'entry' calls preserve_none 'not_used' but is not made preserve_none: it is visible outside the module
; REMARK-NEXT: remark: {{.*}}'in_compiler_used' calls preserve_none 'seed' but is not made preserve_none: it is in llvm.used or llvm.compiler.used
; REMARK-NEXT: remark: {{.*}}'in_used' calls preserve_none 'seed' but is not made preserve_none: it is in llvm.used or llvm.compiler.used

@llvm.used = appending global [1 x ptr] [ptr @in_used], section "llvm.metadata"
@llvm.compiler.used = appending global [1 x ptr] [ptr @in_compiler_used], section "llvm.metadata"

declare preserve_nonecc void @seed()

; CHECK-LABEL: define internal void @in_used(
define internal void @in_used() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal void @in_compiler_used(
define internal void @in_compiler_used() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal preserve_nonecc void @not_used(
define internal void @not_used() {
  call preserve_nonecc void @seed()
  ret void
}

define void @entry() {
  call void @in_used()
  call void @in_compiler_used()
  call void @not_used()
  ret void
}
