; Guards: argument registers of preserve_nonecc on AArch64 (aarch64-linux-gnu),
; caller and callee side. Observed on LLVM 19.1 and 22.1 (identical):
; integer/pointer arguments go, in order, in
;   x20-x28, x0-x7, x10, x11, x12, x13, x14, x9, x15      (24 registers)
; then on the stack (8-byte slots from [sp] upwards). Note x9 comes AFTER
; x14, not before x10; x8 (indirect result), x16/x17 (IP0/IP1, linker
; veneers), x18 (platform), x19, x29 and x30 are never used for arguments.
; (Upstream's AArch64 commit describes the set as "X0-X7, X9-X15 and
; X19-X28"; the order and the absence of x19 are what llc actually does.)
; FP/SIMD arguments are unaffected: d0-d7 / s0-s7, then stack, and they do
; not consume integer registers.
;
; RUN: llc -mtriple=aarch64-linux-gnu < %s | FileCheck %s

@slot = dso_local global [32 x i64] zeroinitializer
@fslot = dso_local global [16 x double] zeroinitializer

; Caller side: constant N is materialised in the register of argument N;
; 25 and 26 are stored to the outgoing stack area.
declare preserve_nonecc void @pn_sink26(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
define void @caller_26() nounwind {
; CHECK-LABEL: caller_26:
; CHECK-DAG:     mov w20, #1{{[^0-9]}}
; CHECK-DAG:     mov w21, #2{{[^0-9]}}
; CHECK-DAG:     mov w22, #3{{[^0-9]}}
; CHECK-DAG:     mov w23, #4{{[^0-9]}}
; CHECK-DAG:     mov w24, #5{{[^0-9]}}
; CHECK-DAG:     mov w25, #6{{[^0-9]}}
; CHECK-DAG:     mov w26, #7{{[^0-9]}}
; CHECK-DAG:     mov w27, #8{{[^0-9]}}
; CHECK-DAG:     mov w28, #9{{[^0-9]}}
; CHECK-DAG:     mov w0, #10{{[^0-9]}}
; CHECK-DAG:     mov w1, #11{{[^0-9]}}
; CHECK-DAG:     mov w2, #12{{[^0-9]}}
; CHECK-DAG:     mov w3, #13{{[^0-9]}}
; CHECK-DAG:     mov w4, #14{{[^0-9]}}
; CHECK-DAG:     mov w5, #15{{[^0-9]}}
; CHECK-DAG:     mov w6, #16{{[^0-9]}}
; CHECK-DAG:     mov w7, #17{{[^0-9]}}
; CHECK-DAG:     mov w10, #18{{[^0-9]}}
; CHECK-DAG:     mov w11, #19{{[^0-9]}}
; CHECK-DAG:     mov w12, #20{{[^0-9]}}
; CHECK-DAG:     mov w13, #21{{[^0-9]}}
; CHECK-DAG:     mov w14, #22{{[^0-9]}}
; CHECK-DAG:     mov w9, #23{{[^0-9]}}
; CHECK-DAG:     mov w15, #24{{[^0-9]}}
; CHECK-DAG:     mov w[[A25:[0-9]+]], #25
; CHECK-DAG:     mov w[[A26:[0-9]+]], #26
; CHECK-DAG:     str x[[A25]], [sp]
; CHECK-DAG:     str x[[A26]], [sp, #8]
; CHECK:         bl pn_sink26
  call preserve_nonecc void @pn_sink26(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15, i64 16, i64 17, i64 18, i64 19, i64 20, i64 21, i64 22, i64 23, i64 24, i64 25, i64 26)
  ret void
}

; Callee side: argument N is stored to slot[N] (base slot+8, offset 8*(N-1)),
; so each store names the register argument N arrived in.
define preserve_nonecc void @callee_24(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11, i64 %a12, i64 %a13, i64 %a14, i64 %a15, i64 %a16, i64 %a17, i64 %a18, i64 %a19, i64 %a20, i64 %a21, i64 %a22, i64 %a23, i64 %a24) nounwind {
; CHECK-LABEL: callee_24:
; CHECK:         adrp x8, slot+8
; CHECK-NEXT:    add x8, x8, :lo12:slot+8
; CHECK-NEXT:    str x20, [x8]
; CHECK:         str x21, [x8, #8]
; CHECK:         str x22, [x8, #16]
; CHECK:         str x23, [x8, #24]
; CHECK:         str x24, [x8, #32]
; CHECK:         str x25, [x8, #40]
; CHECK:         str x26, [x8, #48]
; CHECK:         str x27, [x8, #56]
; CHECK:         str x28, [x8, #64]
; CHECK:         str x0, [x8, #72]
; CHECK:         str x1, [x8, #80]
; CHECK:         str x2, [x8, #88]
; CHECK:         str x3, [x8, #96]
; CHECK:         str x4, [x8, #104]
; CHECK:         str x5, [x8, #112]
; CHECK:         str x6, [x8, #120]
; CHECK:         str x7, [x8, #128]
; CHECK:         str x10, [x8, #136]
; CHECK:         str x11, [x8, #144]
; CHECK:         str x12, [x8, #152]
; CHECK:         str x13, [x8, #160]
; CHECK:         str x14, [x8, #168]
; CHECK:         str x9, [x8, #176]
; CHECK:         str x15, [x8, #184]
; CHECK-NEXT:    ret
  store volatile i64 %a1, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 1)
  store volatile i64 %a2, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 2)
  store volatile i64 %a3, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 3)
  store volatile i64 %a4, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 4)
  store volatile i64 %a5, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 5)
  store volatile i64 %a6, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 6)
  store volatile i64 %a7, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 7)
  store volatile i64 %a8, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 8)
  store volatile i64 %a9, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 9)
  store volatile i64 %a10, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 10)
  store volatile i64 %a11, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 11)
  store volatile i64 %a12, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 12)
  store volatile i64 %a13, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 13)
  store volatile i64 %a14, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 14)
  store volatile i64 %a15, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 15)
  store volatile i64 %a16, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 16)
  store volatile i64 %a17, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 17)
  store volatile i64 %a18, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 18)
  store volatile i64 %a19, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 19)
  store volatile i64 %a20, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 20)
  store volatile i64 %a21, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 21)
  store volatile i64 %a22, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 22)
  store volatile i64 %a23, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 23)
  store volatile i64 %a24, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 24)
  ret void
}

; Callee side, stack: arguments 25 and 26 are read from [sp] and [sp, #8].
define preserve_nonecc void @callee_stack_args(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11, i64 %a12, i64 %a13, i64 %a14, i64 %a15, i64 %a16, i64 %a17, i64 %a18, i64 %a19, i64 %a20, i64 %a21, i64 %a22, i64 %a23, i64 %a24, i64 %a25, i64 %a26) nounwind {
; CHECK-LABEL: callee_stack_args:
; CHECK-NEXT:  // %bb.0:
; CHECK-NEXT:    ldp [[A25:x[0-9]+]], [[A26:x[0-9]+]], [sp]
; CHECK:         str [[A25]], [x{{[0-9]+}}]
; CHECK-NEXT:    str [[A26]], [x{{[0-9]+}}, #8]
  store volatile i64 %a25, ptr @slot
  store volatile i64 %a26, ptr getelementptr inbounds ([32 x i64], ptr @slot, i64 0, i64 1)
  ret void
}

; Mixed integer and FP arguments: FP values take d0/s1/d2, integer ones keep
; their own sequence (x20, x21, x22) without gaps.
declare preserve_nonecc void @pn_mixed(i64, double, i32, float, ptr, double)
define void @caller_mixed(ptr %p) nounwind {
; CHECK-LABEL: caller_mixed:
; CHECK-DAG:     fmov d0, #2.0
; CHECK-DAG:     fmov s1, #4.0
; CHECK-DAG:     fmov d2, #6.0
; CHECK-DAG:     mov w20, #1{{[^0-9]}}
; CHECK-DAG:     mov w21, #3{{[^0-9]}}
; CHECK-DAG:     mov x22, x0
; CHECK:         bl pn_mixed
  call preserve_nonecc void @pn_mixed(i64 1, double 2.0, i32 3, float 4.0, ptr %p, double 6.0)
  ret void
}

; Callee side for FP: d1 in d0, d8 in d7, d9 on the stack, and the first
; integer argument after nine doubles is still x20.
define preserve_nonecc void @callee_9_doubles(double %d1, double %d2, double %d3, double %d4, double %d5, double %d6, double %d7, double %d8, double %d9, i64 %i1) nounwind {
; CHECK-LABEL: callee_9_doubles:
; CHECK:         ldr [[D9:d[0-9]+]], [sp]
; CHECK:         str d0, [x{{[0-9]+}}, :lo12:fslot]
; CHECK-NEXT:    str d7, [x{{[0-9]+}}, :lo12:fslot]
; CHECK-NEXT:    str [[D9]], [x{{[0-9]+}}, :lo12:fslot]
; CHECK-NEXT:    str x20, [x{{[0-9]+}}, :lo12:slot]
; CHECK-NEXT:    ret
  store volatile double %d1, ptr @fslot
  store volatile double %d8, ptr @fslot
  store volatile double %d9, ptr @fslot
  store volatile i64 %i1, ptr @slot
  ret void
}

; sret: the hidden result pointer takes the FIRST preserve_none register
; (x20), not x8 as in AAPCS64. The next argument moves up to x21.
%Big = type { i64, i64, i64, i64, i64 }
declare preserve_nonecc void @pn_sret(ptr sret(%Big) align 8, i64)
define void @caller_sret(ptr %out) nounwind {
; CHECK-LABEL: caller_sret:
; CHECK-DAG:     mov w21, #5
; CHECK-DAG:     mov x20, x0
; CHECK-NOT:     x8
; CHECK:         bl pn_sret
  call preserve_nonecc void @pn_sret(ptr sret(%Big) align 8 %out, i64 5)
  ret void
}
define preserve_nonecc void @callee_sret(ptr sret(%Big) align 8 %out, i64 %x) nounwind {
; CHECK-LABEL: callee_sret:
; CHECK-NEXT:  // %bb.0:
; CHECK-NEXT:    str x21, [x20]
; CHECK-NEXT:    ret
  store i64 %x, ptr %out
  ret void
}
