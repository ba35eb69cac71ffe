; Guards: a C function that needs a base pointer (over-aligned local + dynamic
; alloca => x86-64 uses %rbx as base pointer) and calls a preserve_nonecc
; function. preserve_none does not preserve %rbx, so the base pointer must be
; protected around the call.
;
; VERSION DIFFERENCE (this is an upstream miscompile in LLVM 19):
; * LLVM 19: nothing protects %rbx around the call; right after the call the
;   frame is addressed through the clobbered %rbx (`leaq 64(%rbx)`), i.e. a
;   wrong-address access if the callee uses %rbx.
; * LLVM 22: %rbx is pushed before the call and popped right after it.
; => On LLVM 19, a function that needs a base pointer must not call
;    preserve_none functions (eligibility rule for the APN pass).
;
; RUN: llc -mtriple=x86_64-linux-gnu < %s \
; RUN:   | FileCheck %s --check-prefixes=CHECK,LLVM%llvm_major

declare preserve_nonecc void @pn_callee(i64)
declare void @use(ptr, ptr)

define void @c_base_pointer_caller(i64 %n) nounwind {
; CHECK-LABEL: c_base_pointer_caller:
; CHECK:         andq $-64, %rsp
; CHECK:         movq %rsp, %rbx
; CHECK:         movq %rdi, %r12
; LLVM19-NEXT:   callq pn_callee@PLT
; LLVM19-NEXT:   leaq 64(%rbx), %rdi
; LLVM22-NEXT:   pushq %rbx
; LLVM22-NEXT:   pushq %rax
; LLVM22-NEXT:   callq pn_callee@PLT
; LLVM22-NEXT:   addq $8, %rsp
; LLVM22-NEXT:   popq %rbx
; LLVM22-NEXT:   leaq 64(%rbx), %rdi
; CHECK:         callq use@PLT
  %big = alloca i64, align 64
  %dyn = alloca i8, i64 %n, align 16
  call preserve_nonecc void @pn_callee(i64 %n)
  call void @use(ptr %big, ptr %dyn)
  ret void
}
