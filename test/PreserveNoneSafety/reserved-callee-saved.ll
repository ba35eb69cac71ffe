; AArch64: a preserve_none call whose caller reserves one of x20-x28
; (-ffixed-x25, "+reserve-x25") without passing an argument in it. The C
; convention preserves x25 and preserve_none does not. LLVM 19 restores a
; reserved x20-x28 in every C function that modifies it: the final check
; routes the call through a shield, whatever the callee. LLVM 22 does not:
; the call is left alone when the callee's definition is here and reserves
; x25 too, and is an error otherwise (a declaration, a definition that does
; not reserve it, a call through a pointer). opt stops at the first error:
; one function per run. Hazards/aarch64-fixed-callee-saved*.c run programs.
;
; RUN: rm -rf %t && split-file %s %t
; RUN: cat %t/common.ll %t/decl.ll > %t/a.ll
; RUN: cat %t/common.ll %t/other.ll > %t/b.ll
; RUN: cat %t/common.ll %t/ptr.ll > %t/c.ll
; RUN: cat %t/common.ll %t/same.ll > %t/d.ll
; RUN: %if llvm-19 %{ %opt_cacs -passes=preserve-none-safety -S %t/a.ll | FileCheck %s --check-prefix=SHIELD %}
; RUN: %if llvm-19 %{ %opt_cacs -passes=preserve-none-safety -S %t/d.ll | FileCheck %s --check-prefix=SHIELD-SAME %}
; RUN: %if llvm-22 %{ not %opt_cacs -passes=preserve-none-safety -disable-output %t/a.ll 2>&1 | FileCheck %s --check-prefix=DECL --implicit-check-not=error: %}
; RUN: %if llvm-22 %{ not %opt_cacs -passes=preserve-none-safety -disable-output %t/b.ll 2>&1 | FileCheck %s --check-prefix=OTHER --implicit-check-not=error: %}
; RUN: %if llvm-22 %{ not %opt_cacs -passes=preserve-none-safety -disable-output %t/c.ll 2>&1 | FileCheck %s --check-prefix=PTR --implicit-check-not=error: %}
; RUN: %if llvm-22 %{ %opt_cacs -passes=preserve-none-safety -S %t/d.ll | FileCheck %s --check-prefix=SAME %}
; SHIELD-LABEL: define void @decl()
; SHIELD-NEXT:    call void @one.cacs.shield(i64 1)
; SHIELD-NEXT:    ret void
; SHIELD:       define private void @one.cacs.shield(i64 %0) #[[#A:]]
; SHIELD-NEXT:  entry:
; SHIELD-NEXT:    tail call preserve_nonecc void @one(i64 %0)
; SHIELD:       attributes #[[#A]] = { noinline {{.*}}"target-features"="+reserve-x25"
; SHIELD-SAME-LABEL: define void @same()
; SHIELD-SAME-NEXT:    call void @reserving.cacs.shield(i64 1)
; DECL: error: {{.*}}preserve_none call to 'one' in 'decl' may overwrite x25, which -ffixed-x25 reserves (for a global register variable, say): a preserve_none function need not preserve x25, and cacs cannot see whether the callee reserves it; do not reserve x25 in code that calls preserve_none functions
; OTHER: error: {{.*}}preserve_none call to 'plain' in 'other' may overwrite x25, which -ffixed-x25 reserves (for a global register variable, say): a preserve_none function need not preserve x25, and 'plain' does not reserve it; do not reserve x25 in code that calls preserve_none functions
; PTR: error: {{.*}}preserve_none call through a pointer in 'ptr' may overwrite x25, which -ffixed-x25 reserves
; SAME-LABEL: define void @same()
; SAME-NEXT:    call preserve_nonecc void @reserving(i64 1)
; SAME-NEXT:    ret void

;--- common.ll
target triple = "aarch64-unknown-linux-gnu"

declare preserve_nonecc void @one(i64)

define preserve_nonecc void @plain(i64 %a) {
  ret void
}

define preserve_nonecc void @reserving(i64 %a) "target-features"="+reserve-x25" {
  ret void
}

;--- decl.ll
define void @decl() "target-features"="+reserve-x25" {
  call preserve_nonecc void @one(i64 1)
  ret void
}

;--- other.ll
define void @other() "target-features"="+reserve-x25" {
  call preserve_nonecc void @plain(i64 1)
  ret void
}

;--- ptr.ll
define void @ptr(ptr %p) "target-features"="+reserve-x25" {
  call preserve_nonecc void %p(i64 1)
  ret void
}

;--- same.ll
define void @same() "target-features"="+reserve-x25" {
  call preserve_nonecc void @reserving(i64 1)
  ret void
}
