; The backend treats a jump-entered yield as the call it was: the frame
; holds the values live across it (never the red zone below rsp, which the
; site's store of its resume address and the entry's store of rbp
; overwrite), with the register allocation of the call. The yield's site
; is not `alignstack` (JumpEnteredEntry::AlignedSite): a function that
; calls nothing else keeps no call's 16-byte alignment at it (`bare`,
; `read`: no push and pop, rsp 8 off at the site), which the entry's slow
; branch restores itself before its C (yield_x86_64.S, yield-slow-align.c).
; A perform's site keeps it (`perform_leaf`): its entry's slow paths run C
; as they find the stack. Without `noredzone` the local below would live at
; -32(%rsp); without the x87 clobbers the long double would stay on the x87
; stack. The resume address is the label right after the jump.
;
; RUN: %opt_cacs -passes=switch-site-jump -S %s | llc -O2 -asm-verbose=false -o - | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare preserve_nonecc void @cacs__yield_pn()

; CHECK-LABEL: local:
; CHECK-NEXT:    .cfi_startproc
; CHECK-NEXT:    subq $32, %rsp
; CHECK-NEXT:    .cfi_def_cfa_offset 40
; CHECK-NEXT:    movq %r12, (%rsp)
; CHECK-NEXT:    .p2align 4
; CHECK-NEXT:  .LBB0_1:
; CHECK-NEXT:    #APP
; CHECK-NEXT:    leaq [[RESUME:.Ltmp[0-9]+]](%rip), %r11
; CHECK-NEXT:    movq %r11, -8(%rsp)
; CHECK-NEXT:    jmpq *cacs__yield_pn_jmp@GOTPCREL(%rip)
; CHECK-NEXT:  [[RESUME]]:
; CHECK-NEXT:    #NO_APP
; CHECK-NEXT:    movq (%rsp), %rax
; CHECK-NEXT:    testq %rax, %rax
; CHECK-NEXT:    je .LBB0_1
; CHECK-NEXT:    addq $32, %rsp
define preserve_nonecc i64 @local(i64 %a) {
entry:
  %x = alloca [4 x i64]
  store volatile i64 %a, ptr %x
  br label %loop
loop:
  call preserve_nonecc void @cacs__yield_pn()
  %v = load volatile i64, ptr %x
  %c = icmp eq i64 %v, 0
  br i1 %c, label %loop, label %done
done:
  ret i64 %v
}

; A leaf but for the yield, no frame of its own: none for the alignment
; either (a call would have one push).
; CHECK-LABEL: bare:
; CHECK-NEXT:    .cfi_startproc
; CHECK-NEXT:    .p2align 4
; CHECK-NEXT:  .LBB1_1:
; CHECK-NEXT:    #APP
; CHECK-NEXT:    leaq [[RESUME:.Ltmp[0-9]+]](%rip), %r11
; CHECK-NEXT:    movq %r11, -8(%rsp)
; CHECK-NEXT:    jmpq *cacs__yield_pn_jmp@GOTPCREL(%rip)
; CHECK-NEXT:  [[RESUME]]:
; CHECK-NEXT:    #NO_APP
; CHECK-NEXT:    jmp .LBB1_1
define preserve_nonecc void @bare() {
entry:
  br label %loop
loop:
  call preserve_nonecc void @cacs__yield_pn()
  br label %loop
}

; A long double live across the site is spilled, as across the call: the
; x87 stack is the thread's, shared by the coroutines, and must be empty at
; a switch.
; CHECK-LABEL: x87:
; CHECK:         fstpt
; CHECK:         #APP
; CHECK-NEXT:    leaq [[RESUME:.Ltmp[0-9]+]](%rip), %r11
; CHECK-NEXT:    movq %r11, -8(%rsp)
; CHECK-NEXT:    jmpq *cacs__yield_pn_jmp@GOTPCREL(%rip)
; CHECK-NEXT:  [[RESUME]]:
; CHECK-NEXT:    #NO_APP
; CHECK-NEXT:    cmpb $0, (%rbp)
; CHECK-NEXT:    jne .LBB2_1
; CHECK-NEXT:    fldt
define x86_fp80 @x87(x86_fp80 %a, x86_fp80 %b, ptr %p) {
entry:
  %m = fmul x86_fp80 %a, %b
  br label %loop
loop:
  call preserve_nonecc void @cacs__yield_pn()
  %again = load volatile i1, ptr %p
  br i1 %again, label %loop, label %done
done:
  %r = fadd x86_fp80 %m, %a
  ret x86_fp80 %r
}

; A handler's read(): a store, the yield, the answer read after it; no
; push and pop around the site (the handler pattern's 2 instructions per
; switch: issue 35).
; CHECK-LABEL: read:
; CHECK-NEXT:    .cfi_startproc
; CHECK-NEXT:    movq %r12, box(%rip)
; CHECK-NEXT:    #APP
; CHECK-NEXT:    leaq [[RESUME:.Ltmp[0-9]+]](%rip), %r11
; CHECK-NEXT:    movq %r11, -8(%rsp)
; CHECK-NEXT:    jmpq *cacs__yield_pn_jmp@GOTPCREL(%rip)
; CHECK-NEXT:  [[RESUME]]:
; CHECK-NEXT:    #NO_APP
; CHECK-NEXT:    movq box(%rip), %rax
; CHECK-NEXT:    incq %rax
; CHECK-NEXT:    retq
@box = dso_local global i64 0
define preserve_nonecc i64 @read(i64 %x) {
  store volatile i64 %x, ptr @box
  call preserve_nonecc void @cacs__yield_pn()
  %v = load volatile i64, ptr @box
  %r = add i64 %v, 1
  ret i64 %r
}

; The perform's site is `alignstack`: the same leaf keeps a call's
; alignment.
; CHECK-LABEL: perform_leaf:
; CHECK-NEXT:    .cfi_startproc
; CHECK-NEXT:    pushq %rax
; CHECK-NEXT:    .cfi_def_cfa_offset 16
; CHECK-NEXT:    xorl %r13d, %r13d
; CHECK-NEXT:    #APP
; CHECK-NEXT:    leaq [[RESUME:.Ltmp[0-9]+]](%rip), %r11
; CHECK-NEXT:    movq %r11, -8(%rsp)
; CHECK-NEXT:    jmpq *cacs__effect_perform_pn_jmp@GOTPCREL(%rip)
; CHECK-NEXT:  [[RESUME]]:
; CHECK-NEXT:    #NO_APP
; CHECK-NEXT:    popq %rcx
; CHECK-NEXT:    .cfi_def_cfa_offset 8
; CHECK-NEXT:    retq
declare preserve_nonecc ptr @cacs__effect_perform_pn(ptr, ptr)
define preserve_nonecc ptr @perform_leaf(ptr %e) {
  %r = call preserve_nonecc ptr @cacs__effect_perform_pn(ptr %e, ptr null)
  ret ptr %r
}
