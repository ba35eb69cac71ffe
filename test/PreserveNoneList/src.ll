; src: entries restrict the fun: entries of their section to functions with
; internal linkage defined in a matching file: the module's source_filename
; or the file of the function's DISubprogram. An externally visible function
; that a src: section would list is left as is, with a warning (translation
; units that only declare it could not know). A section of src: entries alone
; lists every internal function of the matching files.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/list.txt \
; RUN:   -cacs-preserve-none-list-export-warning=false -S %t/coro.ll -o %t/out.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=WARN -DLIST=%t/list.txt --implicit-check-not=warning:
; RUN: FileCheck %s < %t/out.ll
; WARN: {{^}}warning: [[LIST]]:4:1: function 'step_ext' matched here is left as is: 'src:' entries restrict only functions with internal linkage, and it is externally visible; list it in a section without 'src:'{{$}}
;
; The same functions in another file are not listed:
; RUN: sed 's/coro\.c/other.c/g; s/sched\.h/other.h/' %t/coro.ll > %t/other.ll
; RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/list.txt \
; RUN:   -S %t/other.ll 2>&1 | FileCheck %s --check-prefix=OTHER
; OTHER-NOT: preserve_nonecc
;
; At the full-LTO link the source file recorded per TU is used:
; RUN: %opt_cacs -passes='preserve-none-list<lto>' -S %t/out.ll 2>&1 | FileCheck %s --check-prefix=LTO
; LTO-NOT: warning:
; LTO: define internal preserve_nonecc void @step_a()

;--- list.txt
[preserve_none]
src:*/coro.c
fun:step_*
fun:step_ext

[*]
src:*sched.h

;--- coro.ll
source_filename = "/work/src/coro.c"
target triple = "x86_64-unknown-linux-gnu"

; CHECK: define internal preserve_nonecc void @step_a() #[[A:[0-9]+]]
define internal void @step_a() {
  ret void
}
; Not matched by fun: in the first section.
; CHECK: define internal void @other_a()
define internal void @other_a() {
  ret void
}
; CHECK: define void @step_ext()
define void @step_ext() {
  call void @step_a()
  call void @other_a()
  call void @from_header()
  ret void
}
; Defined in sched.h (debug info): the src:-only section lists it.
; CHECK: define internal preserve_nonecc void @from_header() #[[H:[0-9]+]]
define internal void @from_header() !dbg !5 {
  ret void
}
; A declaration has no source file: a src: section never lists it.
; CHECK: declare void @step_decl()
declare void @step_decl()

; CHECK: attributes #[[A]] = { "cacs-preserve-none-list" "cacs-preserve-none-list-src"="/work/src/coro.c" }
; CHECK: attributes #[[H]] = { "cacs-preserve-none-list" "cacs-preserve-none-list-src"="include/sched.h" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "coro.c", directory: "/work/src")
!2 = !DIFile(filename: "include/sched.h", directory: "/work/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "from_header", scope: !2, file: !2, line: 1, type: !4, spFlags: DISPFlagDefinition, unit: !0)
