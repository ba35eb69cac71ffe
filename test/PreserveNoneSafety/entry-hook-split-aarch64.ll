; AArch64: a hook patched into -fpatchable-function-entry's nops runs before
; the prologue and need only preserve the C argument registers (Linux's
; ftrace: `mov x9, x30; bl ftrace_caller`); preserve_none passes its
; integer arguments from the 18th in x10-x14, x9, x15, temporaries the hook
; may use. The final check moves the body and the nops into a C-convention
; function from 18 integer arguments; 17 stay in registers the hook
; preserves (x20-x28 callee-saved, x0-x7 arguments).
;
; RUN: %opt_cacs -passes=preserve-none-safety -pass-remarks=preserve-none-safety -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.err

target triple = "aarch64-unknown-linux-gnu"

; REMARK: remark: {{.*}}the body of preserve_none 'patched' moves into a C-convention function: its entry calls a hook before the prologue (-mfentry, -fpatchable-function-entry) that need not preserve x9-x15, its integer arguments from 18; the hook moves with it, so the hook and a profile see 'patched.cacs.body'
; REMARK-NOT: warning

; CHECK-LABEL: define internal preserve_nonecc i64 @patched(
; CHECK-SAME: #[[ENTRY:[0-9]+]] {
; CHECK-NEXT: entry:
; CHECK-NEXT: %18 = call i64 @patched.cacs.body(
define internal preserve_nonecc i64 @patched(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11, i64 %a12, i64 %a13, i64 %a14, i64 %a15, i64 %a16, i64 %a17, i64 %a18) "patchable-function-entry"="2" {
  ret i64 %a18
}

; CHECK-LABEL: define internal preserve_nonecc i64 @seventeen(
; CHECK-SAME: #[[SEVENTEEN:[0-9]+]] {
; CHECK-NEXT: ret i64 %a17
define internal preserve_nonecc i64 @seventeen(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11, i64 %a12, i64 %a13, i64 %a14, i64 %a15, i64 %a16, i64 %a17) "patchable-function-entry"="2" {
  ret i64 %a17
}

define i64 @use() {
  %1 = call preserve_nonecc i64 @patched(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15, i64 16, i64 17, i64 18)
  %2 = call preserve_nonecc i64 @seventeen(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8, i64 9, i64 10, i64 11, i64 12, i64 13, i64 14, i64 15, i64 16, i64 17)
  %3 = add i64 %1, %2
  ret i64 %3
}

; CHECK: define internal i64 @patched.cacs.body({{.*}}) #[[BODY:[0-9]+]] {
; CHECK-DAG: attributes #[[ENTRY]] = { noinline }
; CHECK-DAG: attributes #[[SEVENTEEN]] = { "patchable-function-entry"="2" }
; CHECK-DAG: attributes #[[BODY]] = { noinline "patchable-function-entry"="2" }
