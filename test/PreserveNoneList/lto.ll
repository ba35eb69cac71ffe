; The full-LTO link (preserve-none-list<lto>) applies the lists recorded in
; the merged module's !cacs.preserve_none_lists to the whole program: calls
; from modules compiled without the list are fixed, definitions from them
; take the decorated name and a C entry, a list recorded by several modules counts once, and an entry
; that matched nothing in the program is a warning, unless a compile step
; recorded that it matched there (its function may be inlined away since).
; It reads no list file.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt_cacs -passes='preserve-none-list<lto>' -S %t/merged.ll -o %t/out.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=WARN --implicit-check-not=warning:
; RUN: FileCheck %s < %t/out.ll
; WARN: warning: /src/coro.list:3:1: 'fun:never_*' matched no function in the program
;
; Without recorded lists it does nothing:
; RUN: %opt_cacs -passes='preserve-none-list<lto>' -S %t/plain.ll | FileCheck %s --check-prefix=PLAIN
; PLAIN: define void @f()
;
; The per-TU run records the list; the LTO run then applies it (a round trip
; through bitcode, as with -flto):
; RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/l.txt \
; RUN:   %t/plain.ll -o %t/plain.bc
; RUN: %opt_cacs -passes='preserve-none-list<lto>' -S %t/plain.bc | FileCheck %s --check-prefix=ROUND
; ROUND: define preserve_nonecc void @f.preserve_none_list()
; ROUND: !cacs.preserve_none_lists = !{![[N:[0-9]+]]}
; ROUND: ![[N]] = !{!"{{.*}}l.txt", !"fun:f\0A{{.*}}", !"1"}

;
; A module that cacs compiled before the decorated names gave a listed
; function the convention under its plain name: its callers may call it so,
; and a C entry of that name would take their calls. The link refuses it.
; RUN: not %opt_cacs -passes='preserve-none-list<lto>' -disable-output %t/old.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=OLD
; OLD: error: function 'work' took preserve_none from a preserve-none list under its plain name, as cacs did before the list's decorated names: rebuild its module with this cacs

;--- old.ll
define preserve_nonecc void @work() "cacs-preserve-none-list" {
  ret void
}
!cacs.preserve_none_lists = !{!0}
!0 = !{!"/src/coro.list", !"fun:work\0A"}
;--- l.txt
fun:f
;--- plain.ll
define void @f() {
  ret void
}
;--- merged.ll
target triple = "x86_64-unknown-linux-gnu"

; CHECK: @fp = global ptr @work
@fp = global ptr @work

; From the module compiled with the list: already converted, the body and
; its C entry.
; CHECK: define preserve_nonecc void @work.preserve_none_list() [[CONV:#[0-9]+]] {
define preserve_nonecc void @work.preserve_none_list() "cacs-preserve-none-list" {
  ret void
}
; CHECK: define void @work() [[ENTRY:#[0-9]+]] {
; CHECK-NEXT: tail call preserve_nonecc void @work.preserve_none_list()
define void @work() "cacs-wrapper" {
  tail call preserve_nonecc void @work.preserve_none_list()
  ret void
}

; From a module compiled without it: the call of the C entry stays (the
; inliner makes it direct); the definition takes the convention and its call
; is fixed.
; CHECK-LABEL: define void @other()
define void @other() {
; CHECK: call void @work()
  call void @work()
; CHECK: call preserve_nonecc void @step.preserve_none_list()
  call void @step()
  ret void
}
; CHECK: define preserve_nonecc void @step.preserve_none_list() [[CONV]] {
define void @step() {
  ret void
}
; CHECK: define void @step() #{{[0-9]+}} {
; CHECK-NEXT: entry:
; CHECK-NEXT: tail call preserve_nonecc void @step.preserve_none_list()

!cacs.preserve_none_lists = !{!0, !1, !2}
!0 = !{!"/src/coro.list", !"fun:work\0Afun:step\0Afun:never_*\0A"}
!1 = !{!"/src/coro.list", !"fun:work\0Afun:step\0Afun:never_*\0A"}
!2 = !{!"/src/inl.list", !"fun:inlined_away\0A", !"1"}
