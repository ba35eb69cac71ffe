; A listed function that cannot be preserve_none is left as is, with a
; warning naming the reason, the list and the line. Calls of it stay C.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/list.txt \
; RUN:   -cacs-preserve-none-list-export-warning=false -S %t/in.ll -o %t/out.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=WARN -DLIST=%t/list.txt --implicit-check-not=warning:
; RUN: FileCheck %s < %t/out.ll

; Every warning and no other, in module order; musttail ties are settled last.
; WARN: {{^}}warning: [[LIST]]:1:1: function 'main' listed here cannot be preserve_none: it is 'main'; left as is{{$}}
; WARN-NEXT: {{^}}warning: [[LIST]]:2:1: function 'va' listed here cannot be preserve_none: it is variadic; left as is{{$}}
; WARN-NEXT: {{^}}warning: [[LIST]]:3:1: function 'bv' listed here cannot be preserve_none: its parameter 2 is byval; left as is{{$}}
; WARN-NEXT: {{^}}warning: [[LIST]]:4:1: function 'ia' listed here cannot be preserve_none: its parameter 1 is inalloca; left as is{{$}}
; WARN-NEXT: {{^}}warning: [[LIST]]:5:1: function 'pa' listed here cannot be preserve_none: its parameter 1 is preallocated; left as is{{$}}
; WARN-NEXT: {{^}}warning: [[LIST]]:6:1: function 'isr' listed here cannot be preserve_none: it is an interrupt handler (x86_intrcc); left as is{{$}}
; WARN-NEXT: {{^}}warning: [[LIST]]:7:1: function 'stdc' listed here cannot be preserve_none: it has another calling convention (preserve_mostcc); left as is{{$}}
; WARN-NEXT: {{^}}warning: [[LIST]]:8:1: function 'nk' listed here cannot be preserve_none: it is naked; left as is{{$}}
; WARN-NEXT: {{^}}warning: [[LIST]]:11:1: function 'sw' listed here cannot be preserve_none: its parameter 1 is swiftself; left as is{{$}}
; WARN-NEXT: {{^}}warning: [[LIST]]:9:1: function 'mt_caller' listed here cannot be preserve_none: it makes a musttail call to 'mt_target', which is not preserve_none; left as is{{$}}

;--- list.txt
fun:main
fun:va
fun:bv
fun:ia
fun:pa
fun:isr
fun:stdc
fun:nk
fun:mt_caller
fun:ok
fun:sw

;--- in.ll
target triple = "x86_64-unknown-linux-gnu"

%S = type { [4 x i64] }

; CHECK: define i32 @main()
define i32 @main() {
; CHECK: call void (i32, ...) @va(i32 1)
  call void (i32, ...) @va(i32 1)
; CHECK: call preserve_nonecc void @ok.preserve_none_list()
  call void @ok()
  ret i32 0
}
; CHECK: define void @va(i32 %0, ...)
define void @va(i32, ...) {
  ret void
}
; CHECK: define void @bv(i32 %0, ptr byval(%S) %1)
define void @bv(i32, ptr byval(%S)) {
  ret void
}
; CHECK: declare void @ia(ptr inalloca(%S))
declare void @ia(ptr inalloca(%S))
; CHECK: declare void @pa(ptr preallocated(%S))
declare void @pa(ptr preallocated(%S))
; CHECK: define x86_intrcc void @isr(ptr byval(i64) %0)
define x86_intrcc void @isr(ptr byval(i64)) {
  ret void
}
; CHECK: define preserve_mostcc void @stdc()
define preserve_mostcc void @stdc() {
  ret void
}
; CHECK: define void @nk()
define void @nk() naked {
  unreachable
}
; An internal function whose musttail callee is not listed.
; CHECK: define internal i32 @mt_caller(i32 %x)
define internal i32 @mt_caller(i32 %x) {
  %r = musttail call i32 @mt_target(i32 %x)
  ret i32 %r
}
declare i32 @mt_target(i32)
define i32 @use_mt() {
; CHECK: call i32 @mt_caller(i32 2)
  %r = call i32 @mt_caller(i32 2)
  ret i32 %r
}
; CHECK: define preserve_nonecc void @ok.preserve_none_list()
define void @ok() {
  ret void
}
; The same rule as APN's (cacs::canTakePreserveNone): swift* parameters keep
; a function as is (defect 9 of issue 11: the list converted it silently).
; CHECK: define void @sw(ptr swiftself %p)
define void @sw(ptr swiftself %p) {
  ret void
}
