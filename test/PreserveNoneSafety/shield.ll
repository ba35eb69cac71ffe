; A preserve_none call in a function that may need a base pointer (any
; dynamic stack allocation; see StackFrame.h) is routed through a private C-convention shield
; that makes the call without a tail jump, on AArch64 always and on x86-64
; before LLVM 22 (which saves rbx itself around a call, but stops with a
; fatal error at an invoke). Invokes are rewritten in place.
;
; RUN: sed -e 's/TRIPLE/aarch64-unknown-linux-gnu/' %s | %opt_cacs -passes=preserve-none-safety -S | FileCheck %s --check-prefixes=CHECK,SHIELD
; RUN: sed -e 's/TRIPLE/x86_64-unknown-linux-gnu/' %s | %opt_cacs -passes=preserve-none-safety -S | FileCheck %s --check-prefixes=CHECK,X86-LLVM%llvm_major
; X86-LLVM19 also shields; LLVM 22 fixed the x86-64 backend for calls only,
; so there the shield is made for the invoke.
; RUN: sed -e 's/TRIPLE/x86_64-unknown-linux-gnu/' %s | %opt_cacs -passes=preserve-none-safety -S | FileCheck %s --check-prefix=X86SHIELD-LLVM%llvm_major

target triple = "TRIPLE"

declare preserve_nonecc i64 @pn(i64 noundef)
declare void @use(ptr, ptr)
declare i32 @__gxx_personality_v0(...)

define i64 @needs_bp(i64 %n) uwtable {
; CHECK-LABEL: define i64 @needs_bp(
; SHIELD: %r = call i64 @pn.cacs.shield(i64 noundef %n)
; X86-LLVM19: %r = call i64 @pn.cacs.shield(i64 noundef %n)
; X86-LLVM22: %r = call preserve_nonecc i64 @pn(i64 noundef %n)
  %big = alloca i64, align 64
  %dyn = alloca i8, i64 %n, align 16
  %r = call preserve_nonecc i64 @pn(i64 noundef %n)
  call void @use(ptr %big, ptr %dyn)
  ret i64 %r
}

define i64 @needs_bp_invoke(i64 %n) uwtable personality ptr @__gxx_personality_v0 {
; CHECK-LABEL: define i64 @needs_bp_invoke(
; SHIELD: %r = invoke i64 @pn.cacs.shield(i64 noundef %n)
; X86-LLVM19: %r = invoke i64 @pn.cacs.shield(i64 noundef %n)
; X86-LLVM22: %r = invoke i64 @pn.cacs.shield(i64 noundef %n)
  %big = alloca i64, align 64
  %dyn = alloca i8, i64 %n, align 16
  %r = invoke preserve_nonecc i64 @pn(i64 noundef %n) to label %ok unwind label %lp
ok:
  call void @use(ptr %big, ptr %dyn)
  ret i64 %r
lp:
  %l = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l
}

; No dynamic stack, no base pointer: nothing to do.
define i64 @static_overaligned(i64 %n) {
; CHECK-LABEL: define i64 @static_overaligned(
; CHECK: call preserve_nonecc i64 @pn(
  %big = alloca i64, align 64
  %r = call preserve_nonecc i64 @pn(i64 noundef %n)
  call void @use(ptr %big, ptr null)
  ret i64 %r
}

; A dynamic alloca alone is enough on AArch64 (x19 with 256 bytes of
; locals), so it is shielded too.
define i64 @dynamic_only(i64 %n) {
; CHECK-LABEL: define i64 @dynamic_only(
; SHIELD: call i64 @pn.cacs.shield(
; X86-LLVM19: call i64 @pn.cacs.shield(
; X86-LLVM22: call preserve_nonecc i64 @pn(
  %dyn = alloca i8, i64 %n, align 16
  %r = call preserve_nonecc i64 @pn(i64 noundef %n)
  call void @use(ptr null, ptr %dyn)
  ret i64 %r
}

; One shield per callee and lowering, a real frame: C convention, never
; inlined; its call is marked tail, which the backends never turn into a
; tail jump (test/CodeGen/*/preserve_none-tail-wrapper.ll).
; SHIELD: define private i64 @pn.cacs.shield(i64 noundef %0) #[[ATTR:[0-9]+]]
; SHIELD-NEXT: entry:
; SHIELD-NEXT: %1 = tail call preserve_nonecc i64 @pn(i64 noundef %0)
; SHIELD-NEXT: ret i64 %1
; SHIELD-NOT: cacs.shield
; SHIELD: attributes #[[ATTR]] = { noinline uwtable "cacs-wrapper" }
; X86SHIELD-LLVM19: define private i64 @pn.cacs.shield(
; X86SHIELD-LLVM22: define private i64 @pn.cacs.shield(
