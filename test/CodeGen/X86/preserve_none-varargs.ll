; Documents what upstream does (LLVM 19 and 22 alike) for VARIADIC
; preserve_nonecc functions on x86-64. This is a known-broken area, recorded
; as "current behaviour", not as correct behaviour; if upstream starts
; rejecting it (an upstream patch, llvm/llvm-project#220301, proposes making
; variadic preserve_none an error in Sema and in X86 call lowering), this test
; is expected to change.
;
; The caller and the callee disagree:
; * caller: fixed AND variadic integer arguments use the preserve_none
;   sequence (r12, r13, r14, ...), and the SysV "number of vector registers"
;   byte is still written to %al, which is the 12th preserve_none argument
;   register: `movl $12, %eax` is immediately overwritten by `movb $1, %al`.
; * callee: va_start spills the SysV registers rdi, rsi, rdx, rcx, r8, r9
;   into the register save area and starts gp_offset at 0, so the first
;   va_arg reads what was in %rdi, while the caller put it in %r13.
; Running the C equivalent (sum(2, 10L, 20L) summing two variadic longs,
; clang -O2, LLVM 19 and 22) printed a garbage value instead of 30.
; => Variadic functions must never be given preserve_none on x86-64.
;
; RUN: llc -mtriple=x86_64-linux-gnu < %s | FileCheck %s

declare preserve_nonecc void @pn_va(i64, ...)
declare preserve_nonecc void @pn_va12(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, ...)

; First variadic argument goes in r13, right after the fixed one in r12.
define void @call_va(i64 %a) nounwind {
; CHECK-LABEL: call_va:
; CHECK-DAG:     movl $2, %r13d
; CHECK-DAG:     movq %rdi, %r12
; CHECK-DAG:     movb $1, %al
; CHECK:         callq pn_va@PLT
  call preserve_nonecc void (i64, ...) @pn_va(i64 %a, i64 2, double 1.0)
  ret void
}

; The 12th fixed argument (in rax) is clobbered by the %al vector count.
define void @call_va12() nounwind {
; CHECK-LABEL: call_va12:
; CHECK:         movl $11, %r11d
; CHECK-NEXT:    movl $12, %eax
; CHECK-NEXT:    movb $1, %al
; CHECK-NEXT:    callq pn_va12@PLT
  call preserve_nonecc void (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, ...) @pn_va12(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, double 1.0)
  ret void
}

; Callee: fixed argument read from r12, but va_start saves the SysV argument
; registers and initialises gp_offset = 0, fp_offset = 48
; (0x30_0000_0000 = 206158430208 written as one 8-byte store).
define preserve_nonecc i64 @def_va(i64 %a, ...) nounwind {
; CHECK-LABEL: def_va:
; CHECK-NOT:     %r13
; CHECK:         movq %r12, %rax
; CHECK-DAG:     movq %rdi, {{-?[0-9]+}}(%rsp)
; CHECK-DAG:     movq %rsi, {{-?[0-9]+}}(%rsp)
; CHECK-DAG:     movq %r9, {{-?[0-9]+}}(%rsp)
; CHECK-DAG:     movabsq $206158430208, %r{{.*}}
; CHECK-NOT:     %r13
; CHECK:         retq
  %ap = alloca [24 x i8], align 8
  call void @llvm.va_start(ptr %ap)
  %v = va_arg ptr %ap, i64
  call void @llvm.va_end(ptr %ap)
  %s = add i64 %v, %a
  ret i64 %s
}

declare void @llvm.va_start(ptr)
declare void @llvm.va_end(ptr)
