; Aliases of a listed external function. Every alias keeps pointing at the
; plain name, the C entry, so whatever reaches an alias by name (code built
; without the list, dlsym, a pointer) reaches C code. An alias the list names
; too also gets a decorated alias of the body, which other units built with
; the list call; calls of it in this unit stay C calls of the alias.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt_cacs -passes=preserve-none-list -cacs-preserve-none-list=%t/list.txt \
; RUN:   -S %t/in.ll | FileCheck %s
; CHECK: @listed_alias = alias i64 (i64), ptr @impl
; CHECK-NEXT: @other_alias = alias i64 (i64), ptr @impl
; CHECK-NEXT: @listed_alias.preserve_none_list = alias i64 (i64), ptr @impl.preserve_none_list
; CHECK-NOT: @other_alias.preserve_none_list
; CHECK: define preserve_nonecc i64 @impl.preserve_none_list(i64 %x)
; CHECK-LABEL: define i64 @user(
; CHECK-NEXT: call preserve_nonecc i64 @impl.preserve_none_list(i64 %x)
; CHECK-NEXT: call i64 @listed_alias(i64 %a)
; CHECK-NEXT: call i64 @other_alias(i64 %b)
; CHECK: define i64 @impl(i64 %0)
; CHECK-NEXT: entry:
; CHECK-NEXT: tail call preserve_nonecc i64 @impl.preserve_none_list(i64 %0)

;--- list.txt
fun:impl
fun:listed_alias
;--- in.ll
target triple = "x86_64-unknown-linux-gnu"
@listed_alias = alias i64 (i64), ptr @impl
@other_alias = alias i64 (i64), ptr @impl
define i64 @impl(i64 %x) {
  ret i64 %x
}
define i64 @user(i64 %x) {
  %a = call i64 @impl(i64 %x)
  %b = call i64 @listed_alias(i64 %a)
  %c = call i64 @other_alias(i64 %b)
  ret i64 %c
}
