; Under SafeStack the header marks the assembly that keeps the consumer's
; frame marker (cacs_isg_start). The pass removes the marker line and marks
; the assembly's pointer operand as neither captured nor read, on x86-64 and
; AArch64 alike; other assembly keeps its operands as they are.
; RUN: %opt_cacs -passes=instack-yield %s -S | FileCheck %s
; RUN: sed 's/x86_64-unknown-linux-gnu/aarch64-unknown-linux-gnu/' %s | \
; RUN:   %opt_cacs -passes=instack-yield -S | FileCheck %s
; SafeStack then leaves the allocation on the real stack (the unsafe stack
; pointer is never loaded) and the frame is addressed through rbp:
; RUN: %opt_cacs -passes=instack-yield %s | llc -O1 -o - | FileCheck %s --check-prefix=ASM
; Without the pass the marker stops the build; with the marker text taken
; out by hand (what the pass would do, without the attributes), the
; allocation moves to the unsafe stack:
; RUN: not llc -O1 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MARKER
; RUN: sed 's/[.]error .*plugin.22.0A.09//' %s | llc -O1 -o - | FileCheck %s --check-prefix=NOPASS
; MARKER: error: cacs: an in-stack generator under SafeStack needs the cacs pass plugin

target triple = "x86_64-unknown-linux-gnu"

define void @consumer(i64 %z) safestack {
; CHECK-LABEL: define void @consumer(
; CHECK-SAME: i64 [[Z:%.*]]) #[[ATTR0:[0-9]+]] {
; CHECK-NEXT:    [[P:%.*]] = alloca i8, i64 [[Z]], align 16
; CHECK-NEXT:    call void asm sideeffect "", "r,~{memory}"(ptr {{(nocapture readnone|readnone captures\(none\))}} [[P]])
; CHECK-NEXT:    ret void
;
  %p = alloca i8, i64 %z, align 16
  call void asm sideeffect ".error \22cacs: an in-stack generator under SafeStack needs the cacs pass plugin\22\0A\09", "r,~{memory}"(ptr %p)
  ret void
}

; ASM-LABEL: consumer:
; ASM-NOT: __safestack_unsafe_stack_ptr
; ASM: movq %rsp, %rbp
; ASM-NOT: __safestack_unsafe_stack_ptr
; ASM: .cfi_endproc

; NOPASS-LABEL: consumer:
; NOPASS: __safestack_unsafe_stack_ptr

; Unmarked assembly keeps its operands as they are.
define void @other(ptr %p) {
; CHECK-LABEL: define void @other(
; CHECK-SAME: ptr [[P:%.*]]) {
; CHECK-NEXT:    call void asm sideeffect "# other", "r,~{memory}"(ptr [[P]])
; CHECK-NEXT:    ret void
;
  call void asm sideeffect "# other", "r,~{memory}"(ptr %p)
  ret void
}
