; Sections are optional. Entries before any header apply; a section applies
; when its name (a pattern) matches "preserve_none"; the entries of other
; sections (sanitizer lists, say) are ignored, whatever their kind.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/list.txt \
; RUN:   -cacs-preserve-none-list-export-warning=false -S %t/in.ll | FileCheck %s

;--- list.txt
fun:no_section
[preserve_none]
fun:named
[preserve*]
fun:glob_named
[address]
fun:asan_only
global:ignored_too
src:*

;--- in.ll
; CHECK: define preserve_nonecc void @no_section.preserve_none_list()
define void @no_section() {
  ret void
}
; CHECK: define preserve_nonecc void @named.preserve_none_list()
define void @named() {
  ret void
}
; CHECK: define preserve_nonecc void @glob_named.preserve_none_list()
define void @glob_named() {
  ret void
}
; CHECK: define void @asan_only()
define void @asan_only() {
  ret void
}
