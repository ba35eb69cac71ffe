; Guards: argument registers of preserve_nonecc on x86-64, caller and callee
; side. Observed on LLVM 19.1 and 22.1 (identical), and matching upstream's
; clang AttrDocs for preserve_none: integer/pointer arguments go, in order, in
;   r12, r13, r14, r15, rdi, rsi, rdx, rcx, r8, r9, r11, rax
; and further ones on the stack (right to left pushes, first stack argument at
; the lowest address). Floating-point arguments are unaffected by
; preserve_none and follow SysV: xmm0-xmm7, then stack; they do not consume
; integer registers.
; (The upstream commit that introduced preserve_none named this register set
; starting with RDI; the allocation order both LLVM 19 and 22 use starts at r12.)
;
; RUN: llc -mtriple=x86_64-linux-gnu < %s | FileCheck %s

@slot = dso_local global [16 x i64] zeroinitializer
@fslot = dso_local global [16 x double] zeroinitializer

; Caller side: constants 1..14 land in the documented order; 13 and 14 are
; pushed. (The pushes of rbx/r12-r15 are this C caller saving its own
; callee-saved registers; see preserve_none-caller.ll.)
declare preserve_nonecc void @pn_sink14(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
define void @caller_14() nounwind {
; CHECK-LABEL: caller_14:
; CHECK:         movl $1, %r12d
; CHECK-NEXT:    movl $2, %r13d
; CHECK-NEXT:    movl $3, %r14d
; CHECK-NEXT:    movl $4, %r15d
; CHECK-NEXT:    movl $5, %edi
; CHECK-NEXT:    movl $6, %esi
; CHECK-NEXT:    movl $7, %edx
; CHECK-NEXT:    movl $8, %ecx
; CHECK-NEXT:    movl $9, %r8d
; CHECK-NEXT:    movl $10, %r9d
; CHECK-NEXT:    movl $11, %r11d
; CHECK-NEXT:    movl $12, %eax
; CHECK-NEXT:    pushq $14
; CHECK-NEXT:    pushq $13
; CHECK-NEXT:    callq pn_sink14
  call preserve_nonecc void @pn_sink14(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14)
  ret void
}

; Callee side: argument N is stored to slot[N], so the source register of
; each store names the register argument N arrived in.
define preserve_nonecc void @callee_14(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11, i64 %a12, i64 %a13, i64 %a14) nounwind {
; CHECK-LABEL: callee_14:
; CHECK-DAG:     movq 8(%rsp), [[A13:%r[a-z0-9]+]]
; CHECK-DAG:     movq 16(%rsp), [[A14:%r[a-z0-9]+]]
; CHECK:         movq %r12, slot+8(%rip)
; CHECK-NEXT:    movq %r13, slot+16(%rip)
; CHECK-NEXT:    movq %r14, slot+24(%rip)
; CHECK-NEXT:    movq %r15, slot+32(%rip)
; CHECK-NEXT:    movq %rdi, slot+40(%rip)
; CHECK-NEXT:    movq %rsi, slot+48(%rip)
; CHECK-NEXT:    movq %rdx, slot+56(%rip)
; CHECK-NEXT:    movq %rcx, slot+64(%rip)
; CHECK-NEXT:    movq %r8, slot+72(%rip)
; CHECK-NEXT:    movq %r9, slot+80(%rip)
; CHECK-NEXT:    movq %r11, slot+88(%rip)
; CHECK-NEXT:    movq %rax, slot+96(%rip)
; CHECK-NEXT:    movq [[A13]], slot+104(%rip)
; CHECK-NEXT:    movq [[A14]], slot+112(%rip)
; CHECK-NEXT:    retq
  store volatile i64 %a1, ptr getelementptr inbounds ([16 x i64], ptr @slot, i64 0, i64 1)
  store volatile i64 %a2, ptr getelementptr inbounds ([16 x i64], ptr @slot, i64 0, i64 2)
  store volatile i64 %a3, ptr getelementptr inbounds ([16 x i64], ptr @slot, i64 0, i64 3)
  store volatile i64 %a4, ptr getelementptr inbounds ([16 x i64], ptr @slot, i64 0, i64 4)
  store volatile i64 %a5, ptr getelementptr inbounds ([16 x i64], ptr @slot, i64 0, i64 5)
  store volatile i64 %a6, ptr getelementptr inbounds ([16 x i64], ptr @slot, i64 0, i64 6)
  store volatile i64 %a7, ptr getelementptr inbounds ([16 x i64], ptr @slot, i64 0, i64 7)
  store volatile i64 %a8, ptr getelementptr inbounds ([16 x i64], ptr @slot, i64 0, i64 8)
  store volatile i64 %a9, ptr getelementptr inbounds ([16 x i64], ptr @slot, i64 0, i64 9)
  store volatile i64 %a10, ptr getelementptr inbounds ([16 x i64], ptr @slot, i64 0, i64 10)
  store volatile i64 %a11, ptr getelementptr inbounds ([16 x i64], ptr @slot, i64 0, i64 11)
  store volatile i64 %a12, ptr getelementptr inbounds ([16 x i64], ptr @slot, i64 0, i64 12)
  store volatile i64 %a13, ptr getelementptr inbounds ([16 x i64], ptr @slot, i64 0, i64 13)
  store volatile i64 %a14, ptr getelementptr inbounds ([16 x i64], ptr @slot, i64 0, i64 14)
  ret void
}

; Mixed integer and FP arguments: FP values take xmm0-xmm2 and the integer
; ones keep their own sequence (r12, r13, r14) without gaps.
declare preserve_nonecc void @pn_mixed(i64, double, i32, float, ptr, double)
define void @caller_mixed(ptr %p) nounwind {
; CHECK-LABEL: caller_mixed:
; CHECK-DAG:     movsd {{.*}}, %xmm0 {{.*}}2.0E+0
; CHECK-DAG:     movss {{.*}}, %xmm1 {{.*}}4.0E+0
; CHECK-DAG:     movsd {{.*}}, %xmm2 {{.*}}6.0E+0
; CHECK-DAG:     movl $1, %r12d
; CHECK-DAG:     movl $3, %r13d
; CHECK-DAG:     movq %rdi, %r14
; CHECK:         callq pn_mixed
  call preserve_nonecc void @pn_mixed(i64 1, double 2.0, i32 3, float 4.0, ptr %p, double 6.0)
  ret void
}

; Callee side for FP: d1 in xmm0, d8 in xmm7, d9 on the stack, and the first
; integer argument after nine doubles is still r12.
define preserve_nonecc void @callee_9_doubles(double %d1, double %d2, double %d3, double %d4, double %d5, double %d6, double %d7, double %d8, double %d9, i64 %i1) nounwind {
; CHECK-LABEL: callee_9_doubles:
; CHECK:         movsd 8(%rsp), [[D9:%xmm[0-9]+]]
; CHECK:         movsd %xmm0, fslot(%rip)
; CHECK-NEXT:    movsd %xmm7, fslot(%rip)
; CHECK-NEXT:    movsd [[D9]], fslot(%rip)
; CHECK-NEXT:    movq %r12, slot(%rip)
; CHECK-NEXT:    retq
  store volatile double %d1, ptr @fslot
  store volatile double %d8, ptr @fslot
  store volatile double %d9, ptr @fslot
  store volatile i64 %i1, ptr @slot
  ret void
}

; sret: the hidden result pointer takes the FIRST preserve_none register
; (r12), not rdi as in SysV; the callee hands it back in rax as usual. The
; next argument moves up to r13.
%Big = type { i64, i64, i64, i64, i64 }
declare preserve_nonecc void @pn_sret(ptr sret(%Big) align 8, i64)
define void @caller_sret(ptr %out) nounwind {
; CHECK-LABEL: caller_sret:
; CHECK-DAG:     movl $5, %r13d
; CHECK-DAG:     movq %rdi, %r12
; CHECK:         callq pn_sret
  call preserve_nonecc void @pn_sret(ptr sret(%Big) align 8 %out, i64 5)
  ret void
}
define preserve_nonecc void @callee_sret(ptr sret(%Big) align 8 %out, i64 %x) nounwind {
; CHECK-LABEL: callee_sret:
; CHECK-NEXT:  # %bb.0:
; CHECK-NEXT:    movq %r12, %rax
; CHECK-NEXT:    movq %r13, (%r12)
; CHECK-NEXT:    retq
  store i64 %x, ptr %out
  ret void
}
