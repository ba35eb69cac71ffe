; Where a site cannot work the flag does nothing and says so in a missed
; remark at each call it keeps: on AArch64 (the sites are x86-64 only), and
; with a shadow stack (-fcf-protection=return), which cacs does not
; support. No warning: the flag is on by default, and a default is silent
; on every target.
;
; RUN: sed 's/TRIPLE/aarch64-unknown-linux-gnu/;s/SHSTK/0/' %s | %opt_cacs -passes=switch-site-jump -pass-remarks-missed=switch-site-jump -S 2>&1 | FileCheck %s --check-prefixes=CHECK,A64
; RUN: sed 's/TRIPLE/x86_64-unknown-linux-gnu/;s/SHSTK/1/' %s | %opt_cacs -passes=switch-site-jump -pass-remarks-missed=switch-site-jump -S 2>&1 | FileCheck %s --check-prefixes=CHECK,SHSTK
;
; CHECK-NOT: warning
; A64: remark: <unknown>:0:0: cacs_yield stays a call: it is implemented for x86-64 ELF only
; SHSTK: remark: <unknown>:0:0: cacs_yield stays a call: cacs does not support shadow stacks (-fcf-protection=return)
; CHECK-NOT: warning
; CHECK-LABEL: define void @f() {
; CHECK-NEXT:    call preserve_nonecc void @cacs__yield_pn()

target triple = "TRIPLE"

declare preserve_nonecc void @cacs__yield_pn()

define void @f() {
  call preserve_nonecc void @cacs__yield_pn()
  ret void
}

!llvm.module.flags = !{!0}
!0 = !{i32 8, !"cf-protection-return", i32 SHSTK}
