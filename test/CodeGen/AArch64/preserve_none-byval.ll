; Documents what upstream does (LLVM 19 and 22 alike) for a CALL passing a
; `byval` argument to a preserve_nonecc function on AArch64: the byval
; pointer is assigned to the next preserve_none GPR (x21 here) as a plain
; pointer and NO copy is made, unlike the C convention, which copies the
; aggregate into the outgoing argument area. A callee writing to its byval
; parameter would write into the caller's object. (Defining a preserve_none
; function with a byval parameter crashes llc instead; see
; preserve_none-byval-crash.ll.) Clang does not use byval for AArch64 C
; structs (large ones are passed indirectly by the caller's copy), so only
; IR producers that emit byval hit this.
; => byval must make a function/call ineligible for preserve_none.
;
; RUN: llc -mtriple=aarch64-linux-gnu < %s | FileCheck %s

%S = type { i64, i64, i64, i64 }
declare preserve_nonecc void @pn_byval(i64, ptr byval(%S) align 8)
declare void @c_byval(i64, ptr byval(%S) align 8)

define void @call_pn_byval(ptr %p) nounwind {
; CHECK-LABEL: call_pn_byval:
; CHECK-NOT:     [x0
; CHECK-DAG:     mov w20, #7
; CHECK-DAG:     mov x21, x0
; CHECK-NOT:     [x0
; CHECK:         bl pn_byval
  call preserve_nonecc void @pn_byval(i64 7, ptr byval(%S) align 8 %p)
  ret void
}

; Contrast, C convention: the 32 bytes are copied to [sp] (via q registers).
define void @call_c_byval(ptr %p) nounwind {
; CHECK-LABEL: call_c_byval:
; CHECK:         ldp {{q[0-9]+}}, {{q[0-9]+}}, [x0]
; CHECK:         stp {{q[0-9]+}}, {{q[0-9]+}}, [sp]
; CHECK:         bl c_byval
  call void @c_byval(i64 7, ptr byval(%S) align 8 %p)
  ret void
}
