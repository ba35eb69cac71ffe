; A preserve_none definition whose entry calls a hook before the prologue:
; -mfentry's `call __fentry__` ("fentry-call"), -fpatchable-function-entry's
; nops (which a tracer patches into a call). The x86-64 ABI lets the hook
; clobber r11, the 11th integer argument. The final check moves the body and
; the hook into a C-convention function, with a symbol of its own (internal,
; so that a profile names it); the preserve_none entry has no hook. Ten
; arguments leave r11 alone. Hazards/fentry-hook.c runs it.
;
; RUN: %opt_cacs -passes=preserve-none-safety -pass-remarks=preserve-none-safety -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.err
; RUN: %opt_cacs -passes=preserve-none-safety %s 2>/dev/null | llc -O2 | FileCheck %s --check-prefix=ASM

target triple = "x86_64-unknown-linux-gnu"

; REMARK: remark: {{.*}}the body of preserve_none 'fentry' moves into a C-convention function: its entry calls a hook before the prologue (-mfentry, -fpatchable-function-entry) that need not preserve r11, its integer argument 11; the hook moves with it, so the hook and a profile see 'fentry.cacs.body'
; REMARK: remark: {{.*}}the body of preserve_none 'patched' moves into a C-convention function: its entry calls a hook
; REMARK-NOT: warning

; CHECK: define preserve_nonecc i64 @fentry(i64 %0, i64 %1, i64 %2, i64 %3, i64 %4, i64 %5, i64 %6, i64 %7, i64 %8, i64 %9, i64 %10) #[[ENTRY:[0-9]+]] {
; CHECK-NEXT: entry:
; CHECK-NEXT: %11 = call i64 @fentry.cacs.body(i64 %0, i64 %1, i64 %2, i64 %3, i64 %4, i64 %5, i64 %6, i64 %7, i64 %8, i64 %9, i64 %10)
; CHECK-NEXT: ret i64 %11
; CHECK-NEXT: }
define preserve_nonecc i64 @fentry(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11) "fentry-call"="true" {
  ret i64 %a11
}

; CHECK: define preserve_nonecc i64 @patched(i64 %0, i64 %1, i64 %2, i64 %3, i64 %4, i64 %5, i64 %6, i64 %7, i64 %8, i64 %9, i64 %10) #[[ENTRY]] {
; CHECK-NEXT: entry:
; CHECK-NEXT: %11 = call i64 @patched.cacs.body(
define preserve_nonecc i64 @patched(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11) "patchable-function-entry"="8" "patchable-function-prefix"="8" {
  ret i64 %a11
}

; Only prefix nops, before the symbol: nothing runs at the entry.
; CHECK-LABEL: define preserve_nonecc i64 @prefix_only(
; CHECK-SAME: #[[PREFIX:[0-9]+]] {
; CHECK-NEXT: ret i64 %a11
define preserve_nonecc i64 @prefix_only(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11) "patchable-function-entry"="0" "patchable-function-prefix"="8" {
  ret i64 %a11
}

; CHECK-LABEL: define preserve_nonecc i64 @ten(
; CHECK-SAME: #[[TEN:[0-9]+]] {
; CHECK-NEXT: ret i64 %a10
define preserve_nonecc i64 @ten(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10) "fentry-call"="true" {
  ret i64 %a10
}

; CHECK: define internal i64 @fentry.cacs.body(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11) #[[FBODY:[0-9]+]] {
; CHECK-NEXT: ret i64 %a11
; CHECK: define internal i64 @patched.cacs.body({{.*}}) #[[PBODY:[0-9]+]] {
; CHECK-DAG: attributes #[[ENTRY]] = { noinline nonlazybind }
; CHECK-DAG: attributes #[[PREFIX]] = { nonlazybind "patchable-function-entry"="0" "patchable-function-prefix"="8" }
; CHECK-DAG: attributes #[[TEN]] = { "fentry-call"="true" }
; CHECK-DAG: attributes #[[FBODY]] = { noinline "fentry-call"="true" }
; CHECK-DAG: attributes #[[PBODY]] = { noinline "patchable-function-entry"="8" "patchable-function-prefix"="8" }

; The preserve_none entry calls no hook; the body does.
; ASM-LABEL: fentry:
; ASM-NOT: __fentry__
; ASM: callq fentry.cacs.body
; ASM-LABEL: fentry.cacs.body:
; ASM-NEXT: .cfi_startproc
; ASM-NEXT: # %bb.0:
; ASM-NEXT: callq __fentry__
