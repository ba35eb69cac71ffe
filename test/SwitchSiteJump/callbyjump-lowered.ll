; A call of a switch-aware function (preserve_none, returning by the switch
; returns: fn_ret_thunk_extern) becomes a call by jump: one inline assembly
; statement that pushes the return address a call would push and jumps to
; the callee, named by a symbol operand ("s", printed by ${N:P}), with the
; arguments (i64, i32, pointers) bound to preserve_none's registers (r12, r13, ...), the
; result read from rax (truncated where narrower) or rax:rdx and everything else a preserve_none call
; clobbers declared clobbered; `alignstack`, the call's debug location, and
; `noredzone` on the caller, as at a yield site.
;
; RUN: %opt_cacs -passes=switch-site-jump -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare preserve_nonecc void @cacs__yield_pn()

define internal preserve_nonecc i32 @aware(i64 %a, i32 %b, ptr %p) #0 {
  call preserve_nonecc void @cacs__yield_pn()
  %t = trunc i64 %a to i32
  %s = add i32 %t, %b
  store i32 %s, ptr %p
  ret i32 %s
}

define internal preserve_nonecc { i64, ptr } @pair(i64 %c) #0 {
  call preserve_nonecc void @cacs__yield_pn()
  %r = insertvalue { i64, ptr } poison, i64 %c, 0
  ret { i64, ptr } %r
}

; CHECK-LABEL: define i32 @caller(i64 %x, ptr %p, i32 %b, i64 %c)
; CHECK-SAME:  #[[ATTR:[0-9]+]]
; CHECK-NEXT:    %cacs.site.frame = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    [[S:%.*]] = call { i64, i64, i64, i64 } asm sideeffect alignstack "leaq 1f(%rip), %r11\0A\09pushq %r11\0A\09jmp ${7:P}\0A1:", "={rax},={r12},={r13},={r14},{r12},{r13},{r14},s,*m,~{rbx},~{rcx},~{rdx},~{rsi},~{rdi},~{r8},~{r9},~{r10},~{r11},~{r15},~{xmm0},~{xmm1},~{xmm2},~{xmm3},~{xmm4},~{xmm5},~{xmm6},~{xmm7},~{xmm8},~{xmm9},~{xmm10},~{xmm11},~{xmm12},~{xmm13},~{xmm14},~{xmm15},~{st},~{st(1)},~{st(2)},~{st(3)},~{st(4)},~{st(5)},~{st(6)},~{st(7)},~{dirflag},~{fpsr},~{flags},~{memory}"(i64 %x, i32 %b, ptr %p, ptr @aware, ptr elementtype(i8) %cacs.site.frame) #[[NOUNWIND:[0-9]+]], !dbg ![[LOC:[0-9]+]]
; CHECK-NEXT:    [[R0:%.*]] = extractvalue { i64, i64, i64, i64 } [[S]], 0
; CHECK-NEXT:    %r = trunc i64 [[R0]] to i32
; CHECK-NEXT:    %cacs.site.frame1 = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    [[T:%.*]] = call { i64, ptr, i64 } asm sideeffect alignstack "leaq 1f(%rip), %r11\0A\09pushq %r11\0A\09jmp ${4:P}\0A1:", "={rax},={rdx},={r12},{r12},s,*m,~{rbx},~{rcx},~{rsi},~{rdi},~{r8},~{r9},~{r10},~{r11},~{r13},~{r14},~{r15},
; CHECK-SAME:    (i64 %c, ptr @pair, ptr elementtype(i8) %cacs.site.frame1)
; CHECK-NEXT:    [[Q0:%.*]] = extractvalue { i64, ptr, i64 } [[T]], 0
; CHECK-NEXT:    [[Q1:%.*]] = insertvalue { i64, ptr } poison, i64 [[Q0]], 0
; CHECK-NEXT:    [[Q2:%.*]] = extractvalue { i64, ptr, i64 } [[T]], 1
; CHECK-NEXT:    %q = insertvalue { i64, ptr } [[Q1]], ptr [[Q2]], 1
; CHECK-NEXT:    %w = extractvalue { i64, ptr } %q, 0
define i32 @caller(i64 %x, ptr %p, i32 %b, i64 %c) !dbg !5 {
  %r = call preserve_nonecc i32 @aware(i64 %x, i32 %b, ptr %p), !dbg !8
  %q = call preserve_nonecc { i64, ptr } @pair(i64 %c)
  %w = extractvalue { i64, ptr } %q, 0
  %t = trunc i64 %w to i32
  %s = add i32 %r, %t
  ret i32 %s
}

; CHECK: attributes #[[ATTR]] = { noredzone "cacs-switch-site-jumps" }
; CHECK: attributes #[[NOUNWIND]] = { nounwind }
; CHECK: ![[LOC]] = !DILocation(line: 3,

attributes #0 = { fn_ret_thunk_extern }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "t", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "caller", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 3, column: 7, scope: !5)
