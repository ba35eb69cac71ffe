; The marked in-stack yield (cacs/instack_x86_64.h, compiled by cacs) loses
; its marker line and gets `alignstack` and a memory operand on the address
; of the return address; unmarked inline assembly stays as it is. Running the
; pass again changes nothing.
; RUN: %opt_cacs -passes=instack-yield %s -S -o %t.ll
; RUN: FileCheck %s --input-file %t.ll
; RUN: %opt_cacs -passes=instack-yield %t.ll -S | grep -v ModuleID > %t.again.ll
; RUN: grep -v ModuleID %t.ll | diff - %t.again.ll
; AArch64 modules are left alone (the header marks x86-64 yields only):
; RUN: sed 's/x86_64-unknown-linux-gnu/aarch64-unknown-linux-gnu/' %s | \
; RUN:   %opt_cacs -passes=instack-yield -S | FileCheck %s --check-prefix=A64

target triple = "x86_64-unknown-linux-gnu"

define i64 @yield(ptr %ctx, i64 %v) {
; CHECK-LABEL: define i64 @yield(
; CHECK-SAME: ptr [[CTX:%.*]], i64 [[V:%.*]]) {
; CHECK-NEXT:    [[PC:%.*]] = load ptr, ptr [[CTX]], align 8
; CHECK-NEXT:    [[TMP1:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    [[R:%.*]] = tail call { i64, ptr } asm sideeffect alignstack "leaq -8(%rsp), %rsp\0A\09callq *%rdi", "={ax},={di},0,1,*m,~{rdx},~{memory}"(i64 [[V]], ptr [[PC]], ptr elementtype(i8) [[TMP1]]), !srcloc [[META0:![0-9]+]]
; CHECK-NEXT:    [[OUT:%.*]] = extractvalue { i64, ptr } [[R]], 0
; CHECK-NEXT:    [[NEWPC:%.*]] = extractvalue { i64, ptr } [[R]], 1
; CHECK-NEXT:    store ptr [[NEWPC]], ptr [[CTX]], align 8
; CHECK-NEXT:    ret i64 [[OUT]]
;
  %pc = load ptr, ptr %ctx, align 8
  %r = tail call { i64, ptr } asm sideeffect ".error \22cacs: this in-stack yield needs the cacs pass plugin\22\0A\09leaq -8(%rsp), %rsp\0A\09callq *%rdi", "={ax},={di},0,1,~{rdx},~{memory}"(i64 %v, ptr %pc), !srcloc !0
  %out = extractvalue { i64, ptr } %r, 0
  %newpc = extractvalue { i64, ptr } %r, 1
  store ptr %newpc, ptr %ctx, align 8
  ret i64 %out
}

; The C++ wrapper's yield is not marked (its cancel path throws: a call).
define void @unmarked(ptr %pc) {
; CHECK-LABEL: define void @unmarked(
; CHECK-SAME: ptr [[PC:%.*]]) {
; CHECK-NEXT:    call void asm sideeffect "callq *%rdi", "{di},~{memory}"(ptr [[PC]])
; CHECK-NEXT:    ret void
;
  call void asm sideeffect "callq *%rdi", "{di},~{memory}"(ptr %pc)
  ret void
}

; A marked yield without clobbers: the memory operand goes last.
define void @no_clobbers(ptr %pc) {
; CHECK-LABEL: define void @no_clobbers(
; CHECK-SAME: ptr [[PC:%.*]]) {
; CHECK-NEXT:    [[TMP1:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void asm sideeffect alignstack "callq *%rdi", "{di},*m"(ptr [[PC]], ptr elementtype(i8) [[TMP1]])
; CHECK-NEXT:    ret void
;
  call void asm sideeffect ".error \22cacs: this in-stack yield needs the cacs pass plugin\22\0A\09callq *%rdi", "{di}"(ptr %pc)
  ret void
}

; A64-LABEL: define i64 @yield(
; A64:         asm sideeffect ".error \22cacs: this in-stack yield needs the cacs pass plugin\22
; A64-NOT:     alignstack

!0 = !{i64 42}
