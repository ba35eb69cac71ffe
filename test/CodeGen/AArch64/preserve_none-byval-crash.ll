; Documents an upstream crash (LLVM 19 and 22 alike): llc aborts in AArch64
; instruction selection (argument lowering) when a preserve_nonecc function
; on AArch64 has a `byval` parameter. Release builds print no assertion
; text, so the stack dump's pass/function line is checked.
; If upstream fixes this, this test starts failing: revisit
; preserve_none-byval.ll at the same time (the caller side passes the byval
; pointer uncopied).
; => byval parameters must make a function ineligible for preserve_none.
;
; RUN: not --crash llc -mtriple=aarch64-linux-gnu < %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s
; CHECK: Running pass 'AArch64 Instruction Selection' on function '@def_byval'

%S = type { i64, i64, i64, i64 }

define preserve_nonecc i64 @def_byval(i64 %a, ptr byval(%S) align 8 %p) {
  %f = getelementptr %S, ptr %p, i32 0, i32 3
  %v = load i64, ptr %f, align 8
  %s = add i64 %v, %a
  ret i64 %s
}
