; A call of cacs_effect_perform's entry becomes the jump-entered site of
; cacs__effect_perform_pn_jmp, its arguments bound to preserve_none's first
; argument registers (r12, r13) and its result to rax. The call clobbers
; r12 and r13, so they are outputs too (discarded), and no bound register
; is in the clobber list; the call's value is the statement's first output.
;
; RUN: %opt_cacs -passes=switch-site-jump -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare preserve_nonecc ptr @cacs__effect_perform_pn(ptr, ptr)
declare void @use(ptr)

; CHECK-LABEL: define void @perform(ptr %e, ptr %payload)
; CHECK-SAME:  #[[ATTR:[0-9]+]] {
; CHECK-NEXT:    %cacs.site.frame = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    %r.site = call { ptr, i64, i64 } asm sideeffect alignstack "leaq 1f(%rip), %r11\0A\09movq %r11, -8(%rsp)\0A\09jmpq *cacs__effect_perform_pn_jmp@GOTPCREL(%rip)\0A1:", "={rax},={r12},={r13},{r12},{r13},*m,~{rbx},~{rcx},~{rdx},~{rsi},~{rdi},~{r8},~{r9},~{r10},~{r11},~{r14},~{r15},~{xmm0},~{xmm1},~{xmm2},~{xmm3},~{xmm4},~{xmm5},~{xmm6},~{xmm7},~{xmm8},~{xmm9},~{xmm10},~{xmm11},~{xmm12},~{xmm13},~{xmm14},~{xmm15},~{st},~{st(1)},~{st(2)},~{st(3)},~{st(4)},~{st(5)},~{st(6)},~{st(7)},~{dirflag},~{fpsr},~{flags},~{memory}"(ptr %e, ptr %payload, ptr elementtype(i8) %cacs.site.frame) #[[NOUNWIND:[0-9]+]]
; CHECK-NEXT:    %r = extractvalue { ptr, i64, i64 } %r.site, 0
; CHECK-NEXT:    call void @use(ptr %r)
; CHECK-NEXT:    ret void
define void @perform(ptr %e, ptr %payload) {
  %r = call preserve_nonecc ptr @cacs__effect_perform_pn(ptr noundef %e, ptr noundef %payload)
  call void @use(ptr %r)
  ret void
}

; CHECK-DAG: attributes #[[ATTR]] = { noredzone "cacs-switch-site-jumps" }
; CHECK-DAG: attributes #[[NOUNWIND]] = { nounwind }
