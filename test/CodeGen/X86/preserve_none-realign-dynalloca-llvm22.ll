; REQUIRES: llvm-22
; LLVM 22 counterpart of preserve_none-realign-dynalloca-llvm19.ll (where llc
; aborts). In LLVM 22 a preserve_nonecc function may need a base pointer:
; it uses %rbx as base pointer WITHOUT saving it in the prologue (preserve_none
; does not preserve %rbx for its own caller), only the frame pointer %rbp is
; saved, and %rbx is pushed/popped around the call to another preserve_none
; function that may clobber it.
;
; RUN: llc -mtriple=x86_64-linux-gnu < %s | FileCheck %s

declare preserve_nonecc void @pn_callee(i64)
declare void @use(ptr, ptr)

define preserve_nonecc void @pn_realign_dynalloca(i64 %n) nounwind {
; CHECK-LABEL: pn_realign_dynalloca:
; CHECK-NEXT:  # %bb.0:
; CHECK-NEXT:    pushq %rbp
; CHECK-NEXT:    movq %rsp, %rbp
; CHECK-NEXT:    andq $-64, %rsp
; CHECK-NEXT:    subq ${{[0-9]+}}, %rsp
; CHECK-NEXT:    movq %rsp, %rbx
; CHECK:         pushq %rbx
; CHECK-NEXT:    pushq %rax
; CHECK-NEXT:    callq pn_callee@PLT
; CHECK-NEXT:    addq $8, %rsp
; CHECK-NEXT:    popq %rbx
; CHECK-NEXT:    leaq 64(%rbx), %rdi
; CHECK:         callq use@PLT
; CHECK-NEXT:    movq %rbp, %rsp
; CHECK-NEXT:    popq %rbp
; CHECK-NEXT:    retq
  %big = alloca i64, align 64
  %dyn = alloca i8, i64 %n, align 16
  call preserve_nonecc void @pn_callee(i64 %n)
  call void @use(ptr %big, ptr %dyn)
  ret void
}
