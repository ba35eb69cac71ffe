; A listed function gets preserve_nonecc, definition or declaration, and so
; does every direct call of it (call and invoke); unlisted ones are untouched.
; An externally visible one takes the convention under its decorated name,
; <name>.preserve_none_list, which its direct calls call; the plain name of a
; definition becomes a C entry that calls the body, and a declaration keeps
; the plain name, C, for every other use.
; The per-TU run records the list in !cacs.preserve_none_lists, with the
; lines of the entries that matched.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/list.txt \
; RUN:   -cacs-preserve-none-list-export-warning=false -S %t/in.ll | FileCheck %s
;
; Without a list the pass does nothing:
; RUN: %opt_cacs -passes=preserve-none-list -S %t/in.ll | FileCheck %s --check-prefix=NOLIST
; NOLIST-NOT: preserve_nonecc
; NOLIST-NOT: cacs.preserve_none_lists

;--- list.txt
# Functions of the coroutine scheduler.

fun:switch_to
fun:ext_decl

;--- in.ll
target triple = "x86_64-unknown-linux-gnu"

; CHECK: define preserve_nonecc void @switch_to.preserve_none_list(ptr %p) [[CONV:#[0-9]+]] {
define void @switch_to(ptr %p) {
  ret void
}

; CHECK: declare i32 @ext_decl(i32)
declare i32 @ext_decl(i32)

; CHECK: define void @not_listed()
define void @not_listed() {
  ret void
}

declare i32 @__gxx_personality_v0(...)

; CHECK-LABEL: define void @caller(
define void @caller(ptr %p) personality ptr @__gxx_personality_v0 {
; CHECK: call preserve_nonecc void @switch_to.preserve_none_list(ptr %p)
  call void @switch_to(ptr %p)
; CHECK: call preserve_nonecc i32 @ext_decl.preserve_none_list(i32 1)
  %r = call i32 @ext_decl(i32 1)
; CHECK: call void @not_listed()
  call void @not_listed()
; CHECK: invoke preserve_nonecc void @switch_to.preserve_none_list(ptr %p)
  invoke void @switch_to(ptr %p) to label %ok unwind label %lp
ok:
  ret void
lp:
  %x = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %x
}
; The C entry under the plain name, and the body's declaration:
; CHECK: define void @switch_to(ptr %0) [[ENTRY:#[0-9]+]] {
; CHECK-NEXT: entry:
; CHECK-NEXT:   tail call preserve_nonecc void @switch_to.preserve_none_list(ptr %0)
; CHECK-NEXT:   ret void
; CHECK-NEXT: }
; CHECK: declare preserve_nonecc i32 @ext_decl.preserve_none_list(i32) [[CONV]]
; CHECK: attributes [[CONV]] = { "cacs-preserve-none-list" }
; CHECK: attributes [[ENTRY]] = { uwtable "cacs-wrapper" }

; CHECK: !cacs.preserve_none_lists = !{![[L:[0-9]+]]}
; CHECK: ![[L]] = !{!"{{.*}}list.txt", !"# Functions of the coroutine scheduler.\0A\0Afun:switch_to\0Afun:ext_decl\0A{{(\\0A)*}}", !"3,4"}
