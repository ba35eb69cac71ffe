; A yield that is not in a loop of its function is lowered as one in a loop
; is, with a remark: a function that yields once and returns (a handler's
; read, a nested wait). The earlier lowering (a call of a site entry and a
; jump at each site) lost there and kept the call; the jump entry has no
; per-site jump (bench/results/switch-returns/jmp-entry.md). Yields before,
; in and after a loop are all lowered.
;
; RUN: %opt_cacs -passes=switch-site-jump -pass-remarks=switch-site-jump -pass-remarks-missed=switch-site-jump -S %s -o - 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.err

target triple = "x86_64-unknown-linux-gnu"

declare preserve_nonecc void @cacs__yield_pn()
declare void @use(i32)

; CHECK-LABEL: define i32 @read(i32 %x)
; CHECK-NEXT:    call void @use(i32 %x)
; CHECK-NEXT:    %cacs.site.frame = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void asm sideeffect "leaq 1f(%rip), %r11\0A\09movq %r11, -8(%rsp)\0A\09jmpq *cacs__yield_pn_jmp@GOTPCREL(%rip)\0A1:"
; CHECK-NEXT:    %r = add i32 %x, 1
; CHECK-NEXT:    ret i32 %r
; REMARK: remark: read.c:4:3: cacs_yield is entered by a jump at this site
define i32 @read(i32 %x) !dbg !5 {
  call void @use(i32 %x)
  call preserve_nonecc void @cacs__yield_pn(), !dbg !8
  %r = add i32 %x, 1
  ret i32 %r
}

; CHECK-LABEL: define void @around(i32 %n)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %cacs.site.frame = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void asm sideeffect "leaq 1f(%rip), %r11\0A\09movq %r11, -8(%rsp)\0A\09jmpq *cacs__yield_pn_jmp@GOTPCREL(%rip)\0A1:"
; CHECK-NEXT:    br label %body
; CHECK:       body:
; CHECK-NEXT:    %i = phi i32 [ 0, %entry ], [ %next, %body ]
; CHECK-NEXT:    %cacs.site.frame1 = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void asm sideeffect "leaq 1f(%rip), %r11\0A\09movq %r11, -8(%rsp)\0A\09jmpq *cacs__yield_pn_jmp@GOTPCREL(%rip)\0A1:"
; CHECK-NEXT:    %next = add i32 %i, 1
; CHECK:       done:
; CHECK-NEXT:    %cacs.site.frame2 = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void asm sideeffect "leaq 1f(%rip), %r11\0A\09movq %r11, -8(%rsp)\0A\09jmpq *cacs__yield_pn_jmp@GOTPCREL(%rip)\0A1:"
; CHECK-NEXT:    ret void
; REMARK-NEXT: remark: read.c:10:3: cacs_yield is entered by a jump at this site
; REMARK-NEXT: remark: read.c:11:3: cacs_yield is entered by a jump at this site
; REMARK-NEXT: remark: read.c:12:3: cacs_yield is entered by a jump at this site
; REMARK-NOT: remark
define void @around(i32 %n) !dbg !9 {
entry:
  call preserve_nonecc void @cacs__yield_pn(), !dbg !10
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  call preserve_nonecc void @cacs__yield_pn(), !dbg !11
  %next = add i32 %i, 1
  %c = icmp slt i32 %next, %n
  br i1 %c, label %body, label %done
done:
  call preserve_nonecc void @cacs__yield_pn(), !dbg !12
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "read.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "read", scope: !1, file: !1, line: 2, type: !6, unit: !0, spFlags: DISPFlagDefinition)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 4, column: 3, scope: !5)
!9 = distinct !DISubprogram(name: "around", scope: !1, file: !1, line: 8, type: !6, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 10, column: 3, scope: !9)
!11 = !DILocation(line: 11, column: 3, scope: !9)
!12 = !DILocation(line: 12, column: 3, scope: !9)
