; Guards: a preserve_nonecc function on x86-64 saves no callee-saved GPR
; except %rbp. Upstream's preserve_none save list on x86-64 (CSR_64_NoneRegs)
; holds only RBP (RSP is never allocatable). %rbx and %r12-%r15, which SysV C
; functions must save, are never pushed.
;
; The checks are exact prologue/epilogue sequences (CHECK-NEXT from the
; function label down to retq), so they fail if the save list of preserve_none
; changes: with the SysV C list, pushq %rbx / %r12-%r15 would appear between
; "# %bb.0:" and "#APP". Checked by hand: rewriting preserve_nonecc to ccc
; in a scratch copy makes FileCheck fail on every function below.
;
; `nounwind` keeps .cfi directives out of the output so CHECK-NEXT can be used.
; Output is identical on LLVM 19 and 22.
;
; RUN: llc -mtriple=x86_64-linux-gnu < %s | FileCheck %s

declare void @ext()

; Clobber exactly the SysV callee-saved GPRs other than rbp: nothing is saved.
define preserve_nonecc void @clobber_sysv_csrs() nounwind {
; CHECK-LABEL: clobber_sysv_csrs:
; CHECK-NEXT:  # %bb.0:
; CHECK-NEXT:    #APP
; CHECK-NEXT:    # clobber rbx r12 r13 r14 r15
; CHECK-NEXT:    #NO_APP
; CHECK-NEXT:    retq
  call void asm sideeffect "# clobber rbx r12 r13 r14 r15", "~{rbx},~{r12},~{r13},~{r14},~{r15}"()
  ret void
}

; Clobber every GPR: the one register saved is %rbp.
define preserve_nonecc void @clobber_every_gpr() nounwind {
; CHECK-LABEL: clobber_every_gpr:
; CHECK-NEXT:  # %bb.0:
; CHECK-NEXT:    pushq %rbp
; CHECK-NEXT:    #APP
; CHECK-NEXT:    # clobber every gpr
; CHECK-NEXT:    #NO_APP
; CHECK-NEXT:    popq %rbp
; CHECK-NEXT:    retq
  call void asm sideeffect "# clobber every gpr", "~{rax},~{rbx},~{rcx},~{rdx},~{rsi},~{rdi},~{rbp},~{r8},~{r9},~{r10},~{r11},~{r12},~{r13},~{r14},~{r15}"()
  ret void
}

; With frame pointers on, the frame record (push rbp; mov rsp, rbp) is the
; whole prologue.
define preserve_nonecc void @frame_pointer_all() nounwind "frame-pointer"="all" {
; CHECK-LABEL: frame_pointer_all:
; CHECK-NEXT:  # %bb.0:
; CHECK-NEXT:    pushq %rbp
; CHECK-NEXT:    movq %rsp, %rbp
; CHECK-NEXT:    #APP
; CHECK-NEXT:    # clobber rbx r12 r13 r14 r15
; CHECK-NEXT:    #NO_APP
; CHECK-NEXT:    popq %rbp
; CHECK-NEXT:    retq
  call void asm sideeffect "# clobber rbx r12 r13 r14 r15", "~{rbx},~{r12},~{r13},~{r14},~{r15}"()
  ret void
}

; Non-leaf: the only stack adjustment is the 8-byte push that realigns the
; stack for the call (pushq %rax / popq %rax), no register is preserved.
define preserve_nonecc void @non_leaf() nounwind {
; CHECK-LABEL: non_leaf:
; CHECK-NEXT:  # %bb.0:
; CHECK-NEXT:    pushq %rax
; CHECK-NEXT:    #APP
; CHECK-NEXT:    # clobber rbx r12 r13 r14 r15
; CHECK-NEXT:    #NO_APP
; CHECK-NEXT:    callq ext@PLT
; CHECK-NEXT:    popq %rax
; CHECK-NEXT:    retq
  call void asm sideeffect "# clobber rbx r12 r13 r14 r15", "~{rbx},~{r12},~{r13},~{r14},~{r15}"()
  call void @ext()
  ret void
}

; Loose form of the same property, robust to scheduling: between the label
; and the end of the function there is no push or pop of a SysV
; callee-saved register.
define preserve_nonecc i64 @no_csr_traffic(i64 %a, i64 %b) nounwind {
; CHECK-LABEL: no_csr_traffic:
; CHECK-NOT:     {{push|pop}}q {{%rbx|%r12|%r13|%r14|%r15}}
; CHECK:         retq
  %r = call i64 asm sideeffect "# $0 = f($1, $2)", "=r,r,r,~{rbx},~{r12},~{r13},~{r14},~{r15}"(i64 %a, i64 %b)
  ret i64 %r
}
