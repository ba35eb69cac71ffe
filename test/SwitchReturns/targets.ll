; The thunk is x86-64's: elsewhere (AArch64 keeps `ret`: no hardware here to
; measure `br x30` on, and its backend has no per-function return hook) and
; under a shadow stack (-fcf-protection=return or full: a `pop; jmp` return
; leaves the shadow stack out of step) nothing is marked. Under IBT alone
; (-fcf-protection=branch) the thunk's jump is `notrack`: the return site it
; lands on has no endbr64.
;
; RUN: sed 's/TRIPLE/aarch64-unknown-linux-gnu/;s/^FLAGS$//' %s \
; RUN:   | %opt_cacs -passes=switch-returns -S | FileCheck %s --check-prefix=KEEP
; RUN: sed 's/TRIPLE/x86_64-unknown-linux-gnu/;s/^FLAGS$/!llvm.module.flags = !{!0}\n!0 = !{i32 8, !"cf-protection-return", i32 1}/' %s \
; RUN:   | %opt_cacs -passes=switch-returns -S | FileCheck %s --check-prefix=KEEP
; RUN: sed 's/TRIPLE/x86_64-unknown-linux-gnu/;s/^FLAGS$/!llvm.module.flags = !{!0}\n!0 = !{i32 8, !"cf-protection-branch", i32 1}/' %s \
; RUN:   | %opt_cacs -passes=switch-returns -S | FileCheck %s --check-prefix=IBT
; RUN: sed 's/TRIPLE/x86_64-unknown-linux-gnu/;s/^FLAGS$/!llvm.module.flags = !{!0}\n!0 = !{i32 8, !"cf-protection-branch", i32 1}/' %s \
; RUN:   | %opt_cacs -passes=switch-returns | llc -O2 -asm-verbose=false -o - | FileCheck %s --check-prefix=IBT-ASM

target triple = "TRIPLE"

declare preserve_nonecc void @yield()

define void @caller() {
  call preserve_nonecc void @yield()
  ret void
}

FLAGS

; KEEP-NOT: fn_ret_thunk_extern
; KEEP-NOT: __x86_return_thunk

; IBT: define void @caller() #[[ON:[0-9]+]]
; IBT: call void asm sideeffect "popq %r11\0A\09.cfi_adjust_cfa_offset -8\0A\09.cfi_register %rip, %r11\0A\09notrack jmpq *%r11"
; IBT: attributes #[[ON]] = { fn_ret_thunk_extern

; IBT-ASM-LABEL: caller:
; IBT-ASM-NEXT:    .cfi_startproc
; IBT-ASM-NEXT:    endbr64
; IBT-ASM:         jmp __x86_return_thunk
; IBT-ASM-LABEL: __x86_return_thunk:
; IBT-ASM-NEXT:    .cfi_startproc
; IBT-ASM-NEXT:    #APP
; IBT-ASM-NEXT:    popq %r11
; IBT-ASM-NEXT:    .cfi_adjust_cfa_offset -8
; IBT-ASM-NEXT:    .cfi_register %rip, %r11
; IBT-ASM-NEXT:    notrack jmpq *%r11
