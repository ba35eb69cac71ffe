; A call of a switch entry that is its function's last act, in a caller of
; its convention (preserve_none), stays a call: the backend makes it a tail
; jump to the call entry, which resumes the caller's caller directly, with
; no site, no frame and no return after the resume. Where the backend keeps
; a call (a C caller, which saves rbx and r12-r15 around a preserve_none
; call; tail calls disabled; a frame to realign) or the call is not last,
; the site is lowered as everywhere else. Calls by jump follow the same
; rule: a C caller's tail call of a switch-aware function is entered by a
; jump.
;
; RUN: %opt_cacs -passes=switch-site-jump -pass-remarks-missed=switch-site-jump -S %s -o %t.ll 2>%t.err
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=REMARK < %t.err
; RUN: llc -O2 -asm-verbose=false %t.ll -o - | FileCheck %s --check-prefix=ASM

target triple = "x86_64-unknown-linux-gnu"

@box = dso_local global i64 0

declare preserve_nonecc void @cacs__yield_pn()
declare preserve_nonecc ptr @cacs__effect_perform_pn(ptr, ptr)
declare preserve_nonecc i64 @aware(i64) #0
declare void @use(ptr)

; CHECK-LABEL: define preserve_nonecc void @wait(i64 %x)
; CHECK-NEXT:    store volatile i64 %x, ptr @box
; CHECK-NEXT:    tail call preserve_nonecc void @cacs__yield_pn()
; CHECK-NEXT:    ret void
; REMARK: remark: <unknown>:0:0: cacs_yield stays a call: the call is the function's last act, which the backend makes a tail jump
; ASM-LABEL: wait:
; ASM-NEXT:    .cfi_startproc
; ASM-NEXT:    movq %r12, box(%rip)
; ASM-NEXT:    jmp cacs__yield_pn@PLT
; ASM-NEXT:  .Lfunc_end
define preserve_nonecc void @wait(i64 %x) {
  store volatile i64 %x, ptr @box
  tail call preserve_nonecc void @cacs__yield_pn()
  ret void
}

; CHECK-LABEL: define preserve_nonecc ptr @perform(ptr %e, ptr %p)
; CHECK-NEXT:    %r = tail call preserve_nonecc ptr @cacs__effect_perform_pn(ptr %e, ptr %p)
; CHECK-NEXT:    ret ptr %r
; REMARK: remark: <unknown>:0:0: cacs_effect_perform stays a call: the call is the function's last act, which the backend makes a tail jump
; ASM-LABEL: perform:
; ASM-NEXT:    .cfi_startproc
; ASM-NEXT:    jmp cacs__effect_perform_pn@PLT
; ASM-NEXT:  .Lfunc_end
define preserve_nonecc ptr @perform(ptr %e, ptr %p) {
  %r = tail call preserve_nonecc ptr @cacs__effect_perform_pn(ptr %e, ptr %p)
  ret ptr %r
}

; Not last: a site.
; CHECK-LABEL: define preserve_nonecc i64 @notlast(i64 %x)
; CHECK-SAME:  #[[SITE:[0-9]+]] {
; CHECK-NEXT:    %cacs.site.frame = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void asm sideeffect "leaq 1f(%rip), %r11\0A\09movq %r11, -8(%rsp)\0A\09jmpq *cacs__yield_pn_jmp@GOTPCREL(%rip)\0A1:"
; CHECK-NEXT:    %r = add i64 %x, 1
; CHECK-NEXT:    ret i64 %r
define preserve_nonecc i64 @notlast(i64 %x) {
  tail call preserve_nonecc void @cacs__yield_pn()
  %r = add i64 %x, 1
  ret i64 %r
}

; A C caller: the backend would save rbx and r12-r15 around a call.
; CHECK-LABEL: define void @c_caller()
; CHECK-SAME:  #[[SITE]] {
; CHECK-NEXT:    %cacs.site.frame = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void asm sideeffect "leaq 1f(%rip), %r11\0A\09movq %r11, -8(%rsp)\0A\09jmpq *cacs__yield_pn_jmp@GOTPCREL(%rip)\0A1:"
; CHECK-NEXT:    ret void
define void @c_caller() {
  tail call preserve_nonecc void @cacs__yield_pn()
  ret void
}

; CHECK-LABEL: define preserve_nonecc void @no_tail_calls()
; CHECK-SAME:  #[[NOTAIL:[0-9]+]] {
; CHECK-NEXT:    %cacs.site.frame = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void asm sideeffect "leaq 1f(%rip), %r11\0A\09movq %r11, -8(%rsp)
; CHECK-NEXT:    ret void
define preserve_nonecc void @no_tail_calls() "disable-tail-calls"="true" {
  tail call preserve_nonecc void @cacs__yield_pn()
  ret void
}

; CHECK-LABEL: define preserve_nonecc void @realigned()
; CHECK-SAME:  #[[SITE]] {
; CHECK-NEXT:    %a = alloca [64 x i8], align 64
; CHECK-NEXT:    call void @use(ptr %a)
; CHECK-NEXT:    %cacs.site.frame = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void asm sideeffect "leaq 1f(%rip), %r11\0A\09movq %r11, -8(%rsp)
; CHECK-NEXT:    ret void
define preserve_nonecc void @realigned() {
  %a = alloca [64 x i8], align 64
  call void @use(ptr %a)
  tail call preserve_nonecc void @cacs__yield_pn()
  ret void
}

; A C caller's tail call of a switch-aware function: entered by a jump (the
; backend would keep the call).
; CHECK-LABEL: define i64 @c_aware(i64 %x)
; CHECK-SAME:  #[[SITE]] {
; CHECK-NEXT:    %cacs.site.frame = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    %r.site = call { i64, i64 } asm sideeffect alignstack "leaq 1f(%rip), %r11\0A\09pushq %r11\0A\09jmp ${3:P}\0A1:"
; CHECK-NEXT:    %r = extractvalue { i64, i64 } %r.site, 0
; CHECK-NEXT:    ret i64 %r
define i64 @c_aware(i64 %x) {
  %r = tail call preserve_nonecc i64 @aware(i64 %x)
  ret i64 %r
}

; CHECK-DAG: attributes #[[SITE]] = { noredzone "cacs-switch-site-jumps" }
; CHECK-DAG: attributes #[[NOTAIL]] = { noredzone "cacs-switch-site-jumps" "disable-tail-calls"="true" }

attributes #0 = { fn_ret_thunk_extern }
