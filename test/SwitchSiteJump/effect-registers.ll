; The backend puts a lowered resume's arguments in r12, r13 and r14 right
; before the site and reads the request from rax and rdx right after it,
; as around the call; the values live across it stay in the frame or in
; registers the statement does not clobber (rbp), as around the call.
;
; RUN: %opt_cacs -passes=switch-site-jump -S %s | llc -O2 -asm-verbose=false -o - | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare preserve_nonecc { ptr, ptr } @cacs__effect_resume_pn(ptr, ptr, ptr)
declare void @use(ptr, ptr, ptr)

; CHECK-LABEL: resume:
; CHECK:         movq %rdi, %rbp
; CHECK:         movq %rdi, %r12
; CHECK-NEXT:    movq %rsi, %r13
; CHECK-NEXT:    movq %rdx, %r14
; CHECK-NEXT:    #APP
; CHECK-NEXT:    leaq .Ltmp0(%rip), %r11
; CHECK-NEXT:    movq %r11, -8(%rsp)
; CHECK-NEXT:    jmpq *cacs__effect_resume_pn_jmp@GOTPCREL(%rip)
; CHECK-NEXT:  .Ltmp0:
; CHECK-NEXT:    #NO_APP
; CHECK-NEXT:    movq %rax, %rdi
; CHECK-NEXT:    movq %rdx, %rsi
; CHECK-NEXT:    movq %rbp, %rdx
; CHECK-NEXT:    callq use@PLT
define void @resume(ptr %k, ptr %set, ptr %result) {
  %req = call preserve_nonecc { ptr, ptr } @cacs__effect_resume_pn(ptr %k, ptr %set, ptr %result)
  %e = extractvalue { ptr, ptr } %req, 0
  %p = extractvalue { ptr, ptr } %req, 1
  call void @use(ptr %e, ptr %p, ptr %k)
  ret void
}
