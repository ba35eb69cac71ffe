; Each call of cacs_yield's entry becomes one inline assembly statement: the
; store of the resume address (the label after the jump) where a call would
; push it, and the jump to the jump entry, with every register the
; preserve_none call clobbers declared clobbered (all but rsp and rbp; the
; x87 stack) and the call's debug location, without `alignstack` (the
; entry's slow branch realigns itself: frame.ll); the function gets
; `noredzone`. The calls of the other entries (`_bp`, `_none`) and of
; other preserve_none functions stay calls.
;
; RUN: %opt_cacs -passes=switch-site-jump -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare preserve_nonecc void @cacs__yield_pn()
declare preserve_nonecc void @cacs__yield_pn_bp()
declare preserve_nonecc void @cacs__yield_pn_none()
declare preserve_nonecc void @other()
declare void @use(i32)

; CHECK-LABEL: define void @loop(i32 %n)
; CHECK-SAME:  #[[ATTR:[0-9]+]] !dbg
; CHECK:       body:
; CHECK-NEXT:    %i = phi i32 [ 0, %entry ], [ %next, %body ]
; CHECK-NEXT:    call void @use(i32 %i)
; CHECK-NEXT:    %cacs.site.frame = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void asm sideeffect "leaq 1f(%rip), %r11\0A\09movq %r11, -8(%rsp)\0A\09jmpq *cacs__yield_pn_jmp@GOTPCREL(%rip)\0A1:", "*m,~{rax},~{rbx},~{rcx},~{rdx},~{rsi},~{rdi},~{r8},~{r9},~{r10},~{r11},~{r12},~{r13},~{r14},~{r15},~{xmm0},~{xmm1},~{xmm2},~{xmm3},~{xmm4},~{xmm5},~{xmm6},~{xmm7},~{xmm8},~{xmm9},~{xmm10},~{xmm11},~{xmm12},~{xmm13},~{xmm14},~{xmm15},~{st},~{st(1)},~{st(2)},~{st(3)},~{st(4)},~{st(5)},~{st(6)},~{st(7)},~{dirflag},~{fpsr},~{flags},~{memory}"(ptr elementtype(i8) %cacs.site.frame) #[[NOUNWIND:[0-9]+]], !dbg ![[LOC:[0-9]+]]
; CHECK-NEXT:    %next = add i32 %i, 1
define void @loop(i32 %n) !dbg !5 {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  call void @use(i32 %i)
  call preserve_nonecc void @cacs__yield_pn(), !dbg !8
  %next = add i32 %i, 1
  %c = icmp slt i32 %next, %n
  br i1 %c, label %body, label %done
done:
  ret void
}

; CHECK-LABEL: define internal preserve_nonecc void @infected()
; CHECK-SAME:  #[[ATTR]] {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK-NEXT:    %cacs.site.frame = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void asm sideeffect "leaq 1f(%rip), %r11\0A\09movq %r11, -8(%rsp)\0A\09jmpq *cacs__yield_pn_jmp@GOTPCREL(%rip)\0A1:"{{.*}}(ptr elementtype(i8) %cacs.site.frame)
; CHECK-NEXT:    %cacs.site.frame1 = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void asm sideeffect "leaq 1f(%rip), %r11\0A\09movq %r11, -8(%rsp)\0A\09jmpq *cacs__yield_pn_jmp@GOTPCREL(%rip)\0A1:"
; CHECK-NEXT:    br label %loop
define internal preserve_nonecc void @infected() {
entry:
  br label %loop
loop:
  call preserve_nonecc void @cacs__yield_pn()
  tail call preserve_nonecc void @cacs__yield_pn()
  br label %loop
}

; CHECK-LABEL: define void @others()
; CHECK-SAME:  #[[REC:[0-9]+]] {
; CHECK-NEXT:    call preserve_nonecc void @cacs__yield_pn_bp()
; CHECK-NEXT:    call preserve_nonecc void @cacs__yield_pn_none()
; CHECK-NEXT:    call preserve_nonecc void @other()
; CHECK-NEXT:    ret void
define void @others() {
  call preserve_nonecc void @cacs__yield_pn_bp()
  call preserve_nonecc void @cacs__yield_pn_none()
  call preserve_nonecc void @other()
  ret void
}

; CHECK-DAG: attributes #[[ATTR]] = { noredzone "cacs-switch-site-jumps" }
; CHECK-DAG: attributes #[[REC]] = { "cacs-switch-site-jumps" }
; CHECK-DAG: attributes #[[NOUNWIND]] = { nounwind }
; CHECK-DAG: ![[LOC]] = !DILocation(line: 7,

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "loop.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "loop", scope: !1, file: !1, line: 3, type: !6, unit: !0, spFlags: DISPFlagDefinition)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 7, column: 5, scope: !5)
