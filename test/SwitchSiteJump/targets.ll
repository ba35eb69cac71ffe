; Where a site cannot work the flag does nothing and says so: on AArch64
; (the sites are x86-64 only), and with a shadow stack
; (-fcf-protection=return), which cacs does not support. The calls stay,
; each with a missed remark; a warning only where the flag is not at its
; default (-cacs-switch-site-jumps here): a default is silent on every
; target (QUIET).
;
; RUN: sed 's/TRIPLE/aarch64-unknown-linux-gnu/;s/SHSTK/0/' %s | %opt_cacs -passes=switch-site-jump -cacs-switch-site-jumps -pass-remarks-missed=switch-site-jump -S 2>&1 | FileCheck %s --check-prefixes=CHECK,A64
; RUN: sed 's/TRIPLE/x86_64-unknown-linux-gnu/;s/SHSTK/1/' %s | %opt_cacs -passes=switch-site-jump -cacs-switch-site-jumps -pass-remarks-missed=switch-site-jump -S 2>&1 | FileCheck %s --check-prefixes=CHECK,SHSTK
; RUN: sed 's/TRIPLE/aarch64-unknown-linux-gnu/;s/SHSTK/0/' %s | %opt_cacs -passes=switch-site-jump -pass-remarks-missed=switch-site-jump -S 2>&1 | FileCheck %s --check-prefixes=CHECK,QUIET
;
; A64: warning: -fswitch-site-jumps has no effect here: it is implemented for x86-64 ELF only; calls of cacs_yield, cacs_effect_perform and cacs_effect_resume stay calls
; A64: remark: <unknown>:0:0: cacs_yield stays a call: it is implemented for x86-64 ELF only
; SHSTK: warning: -fswitch-site-jumps has no effect here: cacs does not support shadow stacks (-fcf-protection=return); calls of cacs_yield, cacs_effect_perform and cacs_effect_resume stay calls
; SHSTK: remark: <unknown>:0:0: cacs_yield stays a call: cacs does not support shadow stacks (-fcf-protection=return)
; QUIET-NOT: warning
; QUIET: remark: <unknown>:0:0: cacs_yield stays a call: it is implemented for x86-64 ELF only
; QUIET-NOT: warning
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
