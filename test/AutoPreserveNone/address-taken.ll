; A function whose address is taken can be called indirectly, with the C
; convention, from code the pass cannot rewrite; it is not infected, whatever
; the use: a store, a call argument (a callback broker's included), a global
; initializer (a vtable), a call through a different function type, or a
; block address.
;
; RUN: %opt_cacs -passes=auto-preserve-none -S %s | FileCheck %s
; RUN: %opt_cacs -passes=auto-preserve-none -disable-output \
; RUN:   -pass-remarks-missed=auto-preserve-none %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REMARK

@slot = global ptr null
@vtable = internal constant [2 x ptr] [ptr null, ptr @in_vtable]
@label = global ptr blockaddress(@has_blockaddress, %target)

declare preserve_nonecc void @seed()
declare void @take(ptr)
declare !callback !0 void @broker(ptr, ptr)

; CHECK-LABEL: define internal void @stored(
; REMARK-DAG: remark: {{.*}}'stored' calls preserve_none 'seed' but is not made preserve_none: its address is taken by store in 'entry'
define internal void @stored() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal void @argument(
; REMARK-DAG: remark: {{.*}}'argument' calls preserve_none 'seed' but is not made preserve_none: its address is taken by call in 'entry'
define internal void @argument() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal void @callback(ptr %p)
; REMARK-DAG: remark: {{.*}}'callback' calls preserve_none 'seed' but is not made preserve_none: its address is taken by call in 'entry'
define internal void @callback(ptr %p) {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal void @in_vtable(
; REMARK-DAG: remark: {{.*}}'in_vtable' calls preserve_none 'seed' but is not made preserve_none: its address is taken by a constant (a global initializer or a constant expression)
define internal void @in_vtable() {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal void @casted(i32 %x)
; REMARK-DAG: remark: {{.*}}'casted' calls preserve_none 'seed' but is not made preserve_none: it is called with a different function type by call in 'entry'
define internal void @casted(i32 %x) {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal void @has_blockaddress(
; REMARK-DAG: remark: {{.*}}'has_blockaddress' calls preserve_none 'seed' but is not made preserve_none: the address of one of its blocks is taken
define internal void @has_blockaddress() {
  call preserve_nonecc void @seed()
  br label %target
target:
  ret void
}

; Only direct calls: this one is infected, and its caller's use of the
; vtable does not matter.
; CHECK-LABEL: define internal preserve_nonecc void @direct_only(
define internal void @direct_only() {
  call preserve_nonecc void @seed()
  ret void
}

define void @entry() {
  store ptr @stored, ptr @slot
  call void @stored()
  call void @take(ptr @argument)
  call void @argument()
  call void @broker(ptr @callback, ptr null)
  call void @in_vtable()
  call void @casted(i64 1)
  call void @has_blockaddress()
  call void @direct_only()
  ret void
}

!0 = !{!1}
!1 = !{i64 0, i64 1, i1 false}
