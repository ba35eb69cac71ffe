; -cacs-preserve-none-list may be repeated: the lists combine, each is
; recorded once, and diagnostics name the list and line that matched.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/a.txt \
; RUN:   -cacs-preserve-none-list-export-warning \
; RUN:   -cacs-preserve-none-list=%t/b.txt -cacs-preserve-none-list=%t/a.txt \
; RUN:   -S %t/in.ll -o %t/out.ll 2>&1 | FileCheck %s --check-prefix=WARN -DP=%t
; RUN: FileCheck %s < %t/out.ll
; (Two entries match from_b; the diagnostic names one of them.)
; WARN: {{^}}warning: [[P]]/b.txt:{{[24]}}:1: function 'from_b' listed here is exported: code compiled without the list will call it through its C entry (-fpreserve-none-list-export-warning){{$}}
;
; Entries that matched nothing are reported per TU only on request:
; RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/a.txt \
; RUN:   -cacs-preserve-none-list=%t/b.txt -cacs-preserve-none-list-warn-unused \
; RUN:   -cacs-preserve-none-list-export-warning=false \
; RUN:   -disable-output %t/in.ll 2>&1 | FileCheck %s --check-prefix=UNUSED -DP=%t \
; RUN:   --implicit-check-not=warning:
; UNUSED: warning: [[P]]/b.txt:3:1: 'fun:from_nowhere' matched no function in this translation unit
; An entry shadowed by another one that matches the same function is used:
; UNUSED-NOT: line 4

;--- a.txt
fun:from_a
;--- b.txt
# b
fun:from_b
fun:from_nowhere
fun:from_*
;--- in.ll
; CHECK: define internal preserve_nonecc void @from_a()
define internal void @from_a() {
  ret void
}
; CHECK: define preserve_nonecc void @from_b.preserve_none_list()
define void @from_b() {
  call void @from_a()
  ret void
}
; CHECK: !cacs.preserve_none_lists = !{![[A:[0-9]+]], ![[B:[0-9]+]]}
; CHECK: ![[A]] = !{!"{{.*}}a.txt",
; CHECK: ![[B]] = !{!"{{.*}}b.txt",
