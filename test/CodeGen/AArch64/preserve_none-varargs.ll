; Documents what upstream does (LLVM 19 and 22 alike) for VARIADIC
; preserve_nonecc functions on AArch64 (aarch64-linux-gnu): argument passing
; silently falls back to plain AAPCS64, for the fixed arguments too, on both
; the caller and the callee side (fixed args in x0, x1, ..., not x20, x21,
; ...; va_start saves the remaining x registers and q0-q7; gr_offs accounts
; for the fixed ones). Caller and callee agree, so unlike x86-64 (see
; X86/preserve_none-varargs.ll) this is not a miscompile, but such a function
; gets none of preserve_none's argument registers.
; The callee-saved side of preserve_none still applies: @def_va keeps values
; in x19/x20 across a call without saving them, and callers save everything.
;
; RUN: llc -mtriple=aarch64-linux-gnu < %s | FileCheck %s

declare preserve_nonecc void @pn_va(i64, ...)
declare preserve_nonecc void @pn_va12(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, ...)
declare void @escape(ptr)

; %a arrives in x0 and is passed on in x0 untouched; the variadic i64 goes in
; x1 and the double in d0, exactly as for a C variadic call.
define void @call_va(i64 %a) nounwind {
; CHECK-LABEL: call_va:
; CHECK-NOT:     x20
; CHECK-DAG:     mov w1, #2
; CHECK-DAG:     fmov d0, #1.0
; CHECK-NOT:     x0
; CHECK:         bl pn_va
  call preserve_nonecc void (i64, ...) @pn_va(i64 %a, i64 2, double 1.0)
  ret void
}

; Twelve fixed arguments: 1-8 in w0-w7, 9-12 on the stack (AAPCS64), none
; in x20-x28.
define void @call_va12() nounwind {
; CHECK-LABEL: call_va12:
; CHECK-DAG:     mov w0, #1{{$|[^0-9]}}
; CHECK-DAG:     mov w7, #8{{$|[^0-9]}}
; CHECK-DAG:     mov w[[A9:[0-9]+]], #9{{$|[^0-9]}}
; CHECK-DAG:     mov w[[A10:[0-9]+]], #10{{$|[^0-9]}}
; CHECK-DAG:     stp x[[A9]], x[[A10]], [sp]
; CHECK-NOT:     mov w2{{[0-8]}}
; CHECK:         bl pn_va12
  call preserve_nonecc void (i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, ...) @pn_va12(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, double 1.0)
  ret void
}

; Callee: fixed %a/%b are read from x0/x1; the save area starts at x2
; (gr_offs = -48 = 6 regs), and %a/%b are kept in x20/x19 across the call
; with no save of x19/x20 (only x30 is saved).
define preserve_nonecc i64 @def_va(i64 %a, i64 %b, ...) nounwind {
; CHECK-LABEL: def_va:
; CHECK-DAG:     mov x8, #-48
; CHECK-DAG:     mov x20, x0
; CHECK-DAG:     mov x19, x1
; CHECK-DAG:     stp x2, x3, [sp, #128]
; CHECK-DAG:     stp x6, x7, [sp, #160]
; CHECK-DAG:     stp q6, q7, [sp, #96]
; CHECK-DAG:     str x30, [sp, #208]
; CHECK-NOT:     {{stp|str}} x{{19|20}}
; CHECK:         bl escape
; CHECK:         sub x0, x20, x19
  %ap = alloca [32 x i8], align 8
  call void @llvm.va_start(ptr %ap)
  call void @escape(ptr %ap)
  call void @llvm.va_end(ptr %ap)
  %s = sub i64 %a, %b
  ret i64 %s
}

declare void @llvm.va_start(ptr)
declare void @llvm.va_end(ptr)
