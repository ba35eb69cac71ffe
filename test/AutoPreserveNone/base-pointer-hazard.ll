; Guards the backend behaviour behind the dynamic-stack rule of
; dynamic-stack.ll (observed with llc 19.1 and 22.1). If one of these checks
; starts failing, the backend changed and the rule may be revisited.
;
; 1. x86-64, LLVM 19: a preserve_none function that realigns its stack and
;    has a dynamic alloca is a fatal error. LLVM 22 compiles it, using rbx as
;    base pointer.
; RUN: sed -n '/^; PN-BEGIN/,/^; PN-END/p' %s > %t.pn.ll
; RUN: %if llvm-19 %{ not --crash llc -mtriple=x86_64-linux-gnu %t.pn.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=X86-19-FATAL %}
; RUN: %if llvm-22 %{ llc -mtriple=x86_64-linux-gnu %t.pn.ll -o - | FileCheck %s --check-prefix=X86-22-PN %}
; X86-19-FATAL: Stack realignment in presence of dynamic allocas is not supported with{{ ?}}this calling convention
; X86-22-PN-LABEL: pn:
; X86-22-PN:         movq %rsp, %rbx
;
; 2. A C function with a base pointer calling a preserve_none function: the
;    callee may clobber the base pointer. LLVM 22 on x86-64 saves rbx around
;    the call; LLVM 19 on x86-64, and AArch64 on both, do not, and use the
;    base pointer after the call.
; RUN: sed -n '/^; C-BEGIN/,$p' %s > %t.c.ll
; RUN: llc -mtriple=x86_64-linux-gnu %t.c.ll -o - | FileCheck %s --check-prefix=X86-%llvm_major
; RUN: llc -mtriple=aarch64-linux-gnu %t.c.ll -o - | FileCheck %s --check-prefix=A64
;
; X86-19-LABEL: c_realigned:
; X86-19:         movq %rsp, %rbx
; X86-19:         callq use
; X86-19-NOT:     %rbx
; X86-19:         callq seed
; X86-19-NEXT:    movq %rbx, %rdi
; X86-22-LABEL: c_realigned:
; X86-22:         movq %rsp, %rbx
; X86-22:         pushq %rbx
; X86-22:         callq seed
; X86-22-NEXT:    addq $8, %rsp
; X86-22-NEXT:    popq %rbx
;
; AArch64 needs no realignment for a base pointer: a variable-sized object
; and 256 bytes of locals are enough.
; A64-LABEL: c_large_frame:
; A64:         mov x19, sp
; A64:         bl use
; A64-NOT:     x19
; A64:         bl seed
; A64-NEXT:    ldr x1, [x19]
; A64-NEXT:    add x0, x19, #8

; PN-BEGIN
define preserve_nonecc void @pn(i64 %n) {
  %a = alloca i64, align 64
  %v = alloca i8, i64 %n, align 16
  call void @use(ptr %a, ptr %v)
  call preserve_nonecc void @seed()
  ret void
}
declare void @use(ptr, ptr)
declare preserve_nonecc void @seed()
; PN-END

; C-BEGIN
declare preserve_nonecc void @seed()
declare void @use(ptr, ptr)

define void @c_realigned(i64 %n) {
  %a = alloca i64, align 64
  %v = alloca i8, i64 %n, align 16
  call void @use(ptr %a, ptr %v)
  call preserve_nonecc void @seed()
  call void @use(ptr %a, ptr %v)
  ret void
}

define void @c_large_frame(i64 %n) {
  %a = alloca [300 x i8], align 8
  %v = alloca i8, i64 %n, align 16
  call void @use(ptr %a, ptr %v)
  call preserve_nonecc void @seed()
  call void @use(ptr %a, ptr %v)
  ret void
}
