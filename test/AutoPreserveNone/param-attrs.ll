; Parameters preserve_none cannot pass keep a function out: byval (x86-64
; LLVM 19 and 22 pass the pointer in r12 and make no copy, so the callee
; writes the caller's object), inalloca and preallocated (argument memory
; laid out for the C convention), and the swift* registers.
;
; RUN: %opt_cacs -passes=auto-preserve-none -S %s | FileCheck %s
; RUN: %opt_cacs -passes=auto-preserve-none -disable-output \
; RUN:   -pass-remarks-missed=auto-preserve-none %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REMARK

%S = type { i64, i64, i64 }

declare preserve_nonecc void @seed()

; CHECK-LABEL: define internal void @f_byval(
; REMARK-DAG: remark: {{.*}}'f_byval' calls preserve_none 'seed' but is not made preserve_none: its parameter 1 is byval
define internal void @f_byval(ptr byval(%S) %p) {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal void @f_inalloca(
; REMARK-DAG: remark: {{.*}}'f_inalloca' calls preserve_none 'seed' but is not made preserve_none: its parameter 1 is inalloca
define internal void @f_inalloca(ptr inalloca(%S) %p) {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal void @f_preallocated(
; REMARK-DAG: remark: {{.*}}'f_preallocated' calls preserve_none 'seed' but is not made preserve_none: its parameter 1 is preallocated
define internal void @f_preallocated(ptr preallocated(%S) %p) {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal swiftcc void @f_swiftself(
; A swiftcc function is rejected for its convention already; these are C.
; CHECK-LABEL: define internal void @f_swiftself_c(
; REMARK-DAG: remark: {{.*}}'f_swiftself_c' calls preserve_none 'seed' but is not made preserve_none: its parameter 1 is swiftself
define internal swiftcc void @f_swiftself(ptr swiftself %p) {
  call preserve_nonecc void @seed()
  ret void
}
define internal void @f_swiftself_c(ptr swiftself %p) {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal void @f_swifterror(
; REMARK-DAG: remark: {{.*}}'f_swifterror' calls preserve_none 'seed' but is not made preserve_none: its parameter 1 is swifterror
define internal void @f_swifterror(ptr swifterror %p) {
  call preserve_nonecc void @seed()
  ret void
}

; CHECK-LABEL: define internal void @f_swiftasync(
; REMARK-DAG: remark: {{.*}}'f_swiftasync' calls preserve_none 'seed' but is not made preserve_none: its parameter 1 is swiftasync
define internal void @f_swiftasync(ptr swiftasync %p) {
  call preserve_nonecc void @seed()
  ret void
}

; A plain pointer is fine.
; CHECK-LABEL: define internal preserve_nonecc void @f_plain(
define internal void @f_plain(ptr %p) {
  call preserve_nonecc void @seed()
  ret void
}

define void @entry(ptr %s) {
  call void @f_byval(ptr byval(%S) %s)
  %ia = alloca inalloca %S
  call void @f_inalloca(ptr inalloca(%S) %ia)
  %t = call token @llvm.call.preallocated.setup(i32 1)
  %pa = call ptr @llvm.call.preallocated.arg(token %t, i32 0) preallocated(%S)
  call void @f_preallocated(ptr preallocated(%S) %pa) ["preallocated"(token %t)]
  call swiftcc void @f_swiftself(ptr swiftself %s)
  call void @f_swiftself_c(ptr swiftself %s)
  %err = alloca swifterror ptr
  call void @f_swifterror(ptr swifterror %err)
  call void @f_swiftasync(ptr swiftasync %s)
  ret void
}

; (Separate: the inalloca alloca above is dynamic, and a caller with a
; dynamic stack keeps its callees C; see dynamic-stack.ll.)
define void @entry2(ptr %s) {
  call void @f_plain(ptr %s)
  ret void
}

declare token @llvm.call.preallocated.setup(i32)
declare ptr @llvm.call.preallocated.arg(token, i32)
