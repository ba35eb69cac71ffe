; A site on a path whose only other call is elsewhere: shrink-wrapping
; places the prologue in the blocks that touch the frame, and a site is no
; call to it, so the site below ran with rsp 8 off a call's alignment (the
; prologue's push only on the path of the call of @other). A callee entered
; by a jump then faulted on an aligned SSE store (zlib under
; -fswitch-site-jumps, at a yield's site when those were aligned). The
; site's unused frame operand (the function's cacs.site.frame) keeps the
; prologue before it: the push comes first on the site's path, and the
; frame is popped after it. A perform's site here: its entry's slow paths
; run C as they find the stack, so its sites are `alignstack`; the yield's
; realigns itself (frame.ll).
;
; RUN: %opt_cacs -passes=switch-site-jump -S %s | FileCheck %s --check-prefix=IR
; RUN: %opt_cacs -passes=switch-site-jump -S %s | llc -O2 -asm-verbose=false -o - | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare preserve_nonecc void @cacs__yield_pn()
declare preserve_nonecc ptr @cacs__effect_perform_pn(ptr, ptr)
declare void @other()

; IR-LABEL: define preserve_nonecc i32 @early(
; IR-NEXT:  entry:
; IR-NOT:     alloca
; IR:         %cacs.site.frame = call ptr @llvm.addressofreturnaddress.p0()
; IR-NEXT:    %e.site = call { ptr, i64, i64 } asm sideeffect alignstack "leaq 1f(%rip), %r11{{.*}}cacs__effect_perform_pn_jmp{{.*}}1:", "={rax},={r12},={r13},{r12},{r13},*m,{{.*}}"(ptr %p, ptr %p, ptr elementtype(i8) %cacs.site.frame)

; CHECK-LABEL: early:
; CHECK-NEXT:    .cfi_startproc
; CHECK-NEXT:    testq %r12, %r12
; CHECK-NEXT:    je .LBB0_1
; CHECK-NEXT:    pushq %rax
; CHECK-NEXT:    .cfi_def_cfa_offset 16
; CHECK-NEXT:    testl %r13d, %r13d
; CHECK-NEXT:    js .LBB0_5
; CHECK-NEXT:    movq %r12, %r13
; CHECK-NEXT:    #APP
; CHECK-NEXT:    leaq [[RESUME:.Ltmp[0-9]+]](%rip), %r11
; CHECK-NEXT:    movq %r11, -8(%rsp)
; CHECK-NEXT:    jmpq *cacs__effect_perform_pn_jmp@GOTPCREL(%rip)
; CHECK-NEXT:  [[RESUME]]:
; CHECK-NEXT:    #NO_APP
; CHECK-NEXT:    movq %rax, h(%rip)
; CHECK-NEXT:    movl $1, %eax
; CHECK-NEXT:    addq $8, %rsp
@h = dso_local global ptr null
define preserve_nonecc i32 @early(ptr %p, i32 %n) {
entry:
  %c = icmp eq ptr %p, null
  br i1 %c, label %out, label %work
work:
  %neg = icmp slt i32 %n, 0
  br i1 %neg, label %slow, label %site
site:
  %e = call preserve_nonecc ptr @cacs__effect_perform_pn(ptr %p, ptr %p)
  store volatile ptr %e, ptr @h
  br label %out
slow:
  call void @other()
  br label %out
out:
  %r = phi i32 [ 0, %entry ], [ 1, %site ], [ 2, %slow ]
  ret i32 %r
}

; The operand takes no room of its own: the return address's slot is a
; fixed object of every frame. A function whose saved rbp already keeps a
; call's alignment needs no more (an alloca of a byte as the operand cost a
; `subq $16, %rsp` and its `addq` here: a handler that keeps a value across
; its yield).
; CHECK-LABEL: keep:
; CHECK-NEXT:    .cfi_startproc
; CHECK-NEXT:    pushq %rbp
; CHECK-NEXT:    .cfi_def_cfa_offset 16
; CHECK-NEXT:    .cfi_offset %rbp, -16
; CHECK-NEXT:    movl %r12d, %ebp
; CHECK-NEXT:    movl %r12d, g(%rip)
; CHECK-NEXT:    #APP
; CHECK-NEXT:    leaq [[RESUME:.Ltmp[0-9]+]](%rip), %r11
; CHECK-NEXT:    movq %r11, -8(%rsp)
; CHECK-NEXT:    jmpq *cacs__yield_pn_jmp@GOTPCREL(%rip)
; CHECK-NEXT:  [[RESUME]]:
; CHECK-NEXT:    #NO_APP
; CHECK-NEXT:    leal (%rbp,%rbp,2), %eax
; CHECK-NEXT:    popq %rbp
; CHECK-NEXT:    .cfi_def_cfa_offset 8
; CHECK-NEXT:    retq
@g = dso_local global i32 0
define preserve_nonecc i32 @keep(i32 %n) {
  store volatile i32 %n, ptr @g
  call preserve_nonecc void @cacs__yield_pn()
  %r = mul i32 %n, 3
  ret i32 %r
}

; One operand per site, in the site's block (folded into the statement as
; a frame index), and no alloca, also where value names are discarded.
; RUN: printf '#include "cacs/coro.h"\nint f(int n) { int s = 0; for (int i = 0; i < n; i++) { cacs_yield(); s += i; cacs_yield(); } return s; }\n' > %t.c
; RUN: %clang -O2 -fswitch-site-jumps -I%cacs_include -S -emit-llvm %t.c -o - | FileCheck %s --check-prefix=ONE
; ONE-LABEL: define {{.*}} @f(
; ONE-NOT:     alloca
; ONE:         call ptr @llvm.addressofreturnaddress.p0(){{$}}
; ONE-NEXT:    asm sideeffect "leaq 1f(%rip), %r11
; ONE-NOT:     alloca
; ONE:         call ptr @llvm.addressofreturnaddress.p0(){{$}}
; ONE-NEXT:    asm sideeffect "leaq 1f(%rip), %r11
; ONE-NOT:     alloca
