; A function reachable through an alias, or used as an ifunc resolver, keeps
; its convention: the alias and the ifunc are callable symbols of their own.
;
; RUN: %opt_cacs -passes=auto-preserve-none -S %s | FileCheck %s
; RUN: %opt_cacs -passes=auto-preserve-none -disable-output \
; RUN:   -pass-remarks-missed=auto-preserve-none %s 2>&1 \
; RUN:   | env LC_ALL=C sort | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark:
;
; Every remark and no other, sorted: the pass visits functions in use-list order.
; REMARK: remark: {{.*}}'aliased' calls preserve_none 'seed' but is not made preserve_none: it is aliased by 'alias'
; REMARK-NEXT: remark: {{.*}}'resolver' calls preserve_none 'seed' but is not made preserve_none: it is the resolver of ifunc 'ifn'

@alias = alias void (), ptr @aliased
@ifn = ifunc void (), ptr @resolver

declare preserve_nonecc void @seed()
declare void @impl()

; CHECK-LABEL: define internal void @aliased(
define internal void @aliased() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal ptr @resolver(
define internal ptr @resolver() {
  call preserve_nonecc void @seed()
  ret ptr @impl
}

define void @entry() {
  call void @aliased()
  ret void
}
