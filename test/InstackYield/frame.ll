; The frame of a function that yields, after the pass (x86-64, LLVM 19 and
; 22): call-aligned at the yield (the consumer continues below the stack
; pointer: `leaq -8(%rsp)` and the call leave it 16-byte aligned) and no
; red zone, in a leaf, in a function whose other path calls (shrink-
; wrapping), and after the yield is inlined into another leaf.
; RUN: %opt_cacs -passes=instack-yield %s -S -o %t.ll
; RUN: llc -O2 %t.ll -o - | FileCheck %s
; Inlined after the pass (as at the LTO link): the treatment travels with
; the call.
; RUN: %opt_cacs -passes='instack-yield,always-inline' %s -S | llc -O2 -o - | \
; RUN:   FileCheck %s --check-prefix=INL
; Without the pass (what the marker, unassembled, prevents) the same code
; keeps locals in the red zone and yields from an unaligned frame:
; RUN: sed 's/\.error \\22[^\\]*\\22\\0A\\09//' %s | llc -O2 -o - | \
; RUN:   FileCheck %s --check-prefix=BAD
; and the marker, left in place, stops the build:
; RUN: not llc -O2 -filetype=obj %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
; ERR: error: cacs: this in-stack yield needs the cacs pass plugin

target triple = "x86_64-unknown-linux-gnu"

@G = global ptr null
declare void @ext(i64)

; Locals (a volatile slot) live across the yield, no call: a leaf.
define i64 @leaf_locals(ptr %ctx, i64 %v) {
; CHECK-LABEL: leaf_locals:
; CHECK:       # %bb.0:
; CHECK-NEXT:    pushq %rax
; CHECK-NEXT:    .cfi_def_cfa_offset 16
; CHECK-NEXT:    movq %rsi, (%rsp)
; CHECK-NEXT:    movq (%rdi), %rax
; CHECK-NEXT:    #APP
; CHECK-NEXT:    leaq -8(%rsp), %rsp
; CHECK-NEXT:    callq *%rax
; CHECK-NEXT:    #NO_APP
; CHECK-NEXT:    addq (%rsp), %rax
; CHECK-NEXT:    popq %rcx
; CHECK-NEXT:    .cfi_def_cfa_offset 8
; CHECK-NEXT:    retq
; BAD-LABEL: leaf_locals:
; BAD:       # %bb.0:
; BAD-NEXT:    movq %rsi, -8(%rsp)
; BAD-NEXT:    movq (%rdi), %rax
; BAD-NEXT:    #APP
  %a = alloca i64, align 8
  store volatile i64 %v, ptr %a
  %pc = load ptr, ptr %ctx
  %r = call i64 asm sideeffect ".error \22cacs: this in-stack yield needs the cacs pass plugin\22\0A\09leaq -8(%rsp), %rsp\0A\09callq *$1", "={ax},r,~{rdx},~{memory}"(ptr %pc)
  %x = load volatile i64, ptr %a
  %s = add i64 %r, %x
  ret i64 %s
}

; No locals: the frame is only the alignment step.
define i64 @leaf_nolocals(ptr %ctx) {
; CHECK-LABEL: leaf_nolocals:
; CHECK:       # %bb.0:
; CHECK-NEXT:    pushq %rax
; CHECK-NEXT:    .cfi_def_cfa_offset 16
; CHECK-NEXT:    movq (%rdi), %rax
; CHECK-NEXT:    #APP
; CHECK-NEXT:    leaq -8(%rsp), %rsp
; CHECK-NEXT:    callq *%rax
; CHECK-NEXT:    #NO_APP
; CHECK-NEXT:    movq %rax, (%rdi)
; CHECK-NEXT:    popq %rcx
; CHECK-NEXT:    .cfi_def_cfa_offset 8
; CHECK-NEXT:    retq
; BAD-LABEL: leaf_nolocals:
; BAD:       # %bb.0:
; BAD-NEXT:    movq (%rdi), %rax
; BAD-NEXT:    #APP
  %pc = load ptr, ptr %ctx
  %r = call i64 asm sideeffect ".error \22cacs: this in-stack yield needs the cacs pass plugin\22\0A\09leaq -8(%rsp), %rsp\0A\09callq *$1", "={ax},r,~{rdx},~{memory}"(ptr %pc)
  store i64 %r, ptr %ctx
  ret i64 %r
}

; One path yields with nothing live across it, the other calls: the frame
; (here `pushq %rbx`) is set up before the branch, not on the calling path
; only.
define i64 @shrink_wrap(i64 %n) {
; CHECK-LABEL: shrink_wrap:
; CHECK:       # %bb.0:
; CHECK-NEXT:    pushq %rbx
; CHECK-NEXT:    .cfi_def_cfa_offset 16
; CHECK-NEXT:    .cfi_offset %rbx, -16
; CHECK-NEXT:    testq %rdi, %rdi
; CHECK-NEXT:    je .LBB2_1
; CHECK:       .LBB2_1:
; CHECK-NEXT:    .cfi_def_cfa_offset 16
; CHECK-NEXT:    movq G@GOTPCREL(%rip), %rcx
; CHECK-NEXT:    movq (%rcx), %rax
; CHECK-NEXT:    movq (%rax), %rax
; CHECK-NEXT:    #APP
; CHECK-NEXT:    leaq -8(%rsp), %rsp
; CHECK-NEXT:    callq *%rax
; CHECK-NEXT:    #NO_APP
; BAD-LABEL: shrink_wrap:
; BAD:       # %bb.0:
; BAD-NEXT:    testq %rdi, %rdi
; BAD-NEXT:    je .LBB2_1
entry:
  %c = icmp eq i64 %n, 0
  br i1 %c, label %fast, label %slow
fast:
  %ctx = load ptr, ptr @G
  %pc = load ptr, ptr %ctx
  %r = call i64 asm sideeffect ".error \22cacs: this in-stack yield needs the cacs pass plugin\22\0A\09leaq -8(%rsp), %rsp\0A\09callq *$1", "={ax},r,~{rdx},~{memory}"(ptr %pc)
  %ctx2 = load ptr, ptr @G
  store i64 %r, ptr %ctx2
  ret i64 %r
slow:
  call void @ext(i64 %n)
  call void @ext(i64 %n)
  ret i64 %n
}

; INL-LABEL: inlined_into:
; INL:       # %bb.0:
; INL-NEXT:    pushq %rax
; INL-NEXT:    .cfi_def_cfa_offset 16
; INL-NEXT:    movq %rsi, (%rsp)
; INL-NEXT:    movq (%rdi), %rax
; INL-NEXT:    #APP
; INL-NEXT:    leaq -8(%rsp), %rsp
; INL-NEXT:    callq *%rax
; INL-NEXT:    #NO_APP
; INL-NEXT:    addq (%rsp), %rax
; INL-NEXT:    popq %rcx
; INL-NEXT:    .cfi_def_cfa_offset 8
; INL-NEXT:    retq
define internal i64 @helper(ptr %ctx) alwaysinline {
  %pc = load ptr, ptr %ctx
  %r = call i64 asm sideeffect ".error \22cacs: this in-stack yield needs the cacs pass plugin\22\0A\09leaq -8(%rsp), %rsp\0A\09callq *$1", "={ax},r,~{rdx},~{memory}"(ptr %pc)
  ret i64 %r
}
define i64 @inlined_into(ptr %ctx, i64 %v) {
  %a = alloca i64, align 8
  store volatile i64 %v, ptr %a
  %r = call i64 @helper(ptr %ctx)
  %x = load volatile i64, ptr %a
  %s = add i64 %r, %x
  ret i64 %s
}
