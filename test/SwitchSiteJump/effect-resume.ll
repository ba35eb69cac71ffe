; A call of cacs_effect_resume's entry becomes the jump-entered site of
; cacs__effect_resume_pn_jmp: its three arguments in r12, r13, r14 (inputs,
; and discarded outputs: the call clobbers them), the two words of the
; request it returns (cacs_effect_request, { ptr, ptr }) in rax and rdx,
; put back together as the call's value. No bound register is clobbered.
;
; RUN: %opt_cacs -passes=switch-site-jump -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare preserve_nonecc { ptr, ptr } @cacs__effect_resume_pn(ptr, ptr, ptr)
declare void @use(ptr, ptr)

; CHECK-LABEL: define void @resume(ptr %k, ptr %set, ptr %result)
; CHECK-SAME:  #[[ATTR:[0-9]+]] {
; CHECK-NEXT:    %cacs.site.frame = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    %req.site = call { ptr, ptr, i64, i64, i64 } asm sideeffect alignstack "leaq 1f(%rip), %r11\0A\09movq %r11, -8(%rsp)\0A\09jmpq *cacs__effect_resume_pn_jmp@GOTPCREL(%rip)\0A1:", "={rax},={rdx},={r12},={r13},={r14},{r12},{r13},{r14},*m,~{rbx},~{rcx},~{rsi},~{rdi},~{r8},~{r9},~{r10},~{r11},~{r15},~{xmm0},~{xmm1},~{xmm2},~{xmm3},~{xmm4},~{xmm5},~{xmm6},~{xmm7},~{xmm8},~{xmm9},~{xmm10},~{xmm11},~{xmm12},~{xmm13},~{xmm14},~{xmm15},~{st},~{st(1)},~{st(2)},~{st(3)},~{st(4)},~{st(5)},~{st(6)},~{st(7)},~{dirflag},~{fpsr},~{flags},~{memory}"(ptr %k, ptr %set, ptr %result, ptr elementtype(i8) %cacs.site.frame) #[[NOUNWIND:[0-9]+]]
; CHECK-NEXT:    [[E:%[0-9]+]] = extractvalue { ptr, ptr, i64, i64, i64 } %req.site, 0
; CHECK-NEXT:    [[R:%[0-9]+]] = insertvalue { ptr, ptr } poison, ptr [[E]], 0
; CHECK-NEXT:    [[P:%[0-9]+]] = extractvalue { ptr, ptr, i64, i64, i64 } %req.site, 1
; CHECK-NEXT:    %req = insertvalue { ptr, ptr } [[R]], ptr [[P]], 1
; CHECK-NEXT:    %e = extractvalue { ptr, ptr } %req, 0
; CHECK-NEXT:    %p = extractvalue { ptr, ptr } %req, 1
; CHECK-NEXT:    call void @use(ptr %e, ptr %p)
define void @resume(ptr %k, ptr %set, ptr %result) {
  %req = call preserve_nonecc { ptr, ptr } @cacs__effect_resume_pn(ptr noundef %k, ptr noundef %set, ptr noundef %result)
  %e = extractvalue { ptr, ptr } %req, 0
  %p = extractvalue { ptr, ptr } %req, 1
  call void @use(ptr %e, ptr %p)
  ret void
}

; CHECK-DAG: attributes #[[ATTR]] = { noredzone "cacs-switch-site-jumps" }
; CHECK-DAG: attributes #[[NOUNWIND]] = { nounwind }
