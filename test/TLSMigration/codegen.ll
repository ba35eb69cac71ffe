; Code generation keeps the accessor calls the optimizer left: one after
; each switch, in the same basic block (SelectionDAG builds one thread-local
; address a block) and in a loop (AArch64's MachineLICM hoists the read of
; TPIDR_EL0 out of loops); every accessor reads the thread pointer or calls
; the TLS resolver itself. The input is what the pass and -O2 leave.
;
; RUN: llc -O2 -mtriple=x86_64-linux-gnu -relocation-model=pic %s -o - \
; RUN:   | FileCheck %s --check-prefixes=X86,X86-GD
; RUN: sed 's/thread_local global/thread_local(localexec) global/' %s \
; RUN:   | llc -O2 -mtriple=x86_64-linux-gnu -o - \
; RUN:   | FileCheck %s --check-prefixes=X86,X86-LE
; RUN: llc -O2 -mtriple=aarch64-linux-gnu -relocation-model=pic %s -o - \
; RUN:   | FileCheck %s --check-prefixes=A64,A64-GD
; RUN: sed 's/thread_local global/thread_local(localexec) global/' %s \
; RUN:   | llc -O2 -mtriple=aarch64-linux-gnu -o - \
; RUN:   | FileCheck %s --check-prefixes=A64,A64-LE

@x = thread_local global i32 0
declare void @yield()

; X86-LABEL: block:
; X86:         callq x.cacs.tls
; X86-NEXT:    movl $1, (%rax)
; X86-NEXT:    callq yield@PLT
; X86-NEXT:    callq x.cacs.tls
; X86-NEXT:    movl $2, (%rax)
; X86-NEXT:    movq %rax, (%rbx)
; A64-LABEL: block:
; A64:         bl x.cacs.tls
; A64:         str {{w[0-9]+}}, [x0]
; A64-NEXT:    bl yield
; A64-NEXT:    bl x.cacs.tls
; A64:         str x0, [x19]
define void @block(ptr %out) {
  %a = call ptr @x.cacs.tls()
  store i32 1, ptr %a
  call void @yield()
  %b = call ptr @x.cacs.tls()
  store i32 2, ptr %b
  store ptr %b, ptr %out
  ret void
}

; X86-LABEL: loop:
; X86:       .LBB1_1:
; X86-NOT:     yield
; X86:         callq x.cacs.tls
; X86-NEXT:    movl %ebp, (%rax)
; X86-NEXT:    callq yield@PLT
; A64-LABEL: loop:
; A64:       .LBB1_1:
; A64-NOT:     yield
; A64:         bl x.cacs.tls
; A64-NEXT:    str w20, [x0]
; A64-NEXT:    bl yield
define void @loop(i32 %n) {
entry:
  br label %l
l:
  %i = phi i32 [ 0, %entry ], [ %i1, %l ]
  %p = call ptr @x.cacs.tls()
  store i32 %i, ptr %p
  call void @yield()
  %i1 = add i32 %i, 1
  %c = icmp eq i32 %i1, %n
  br i1 %c, label %e, label %l
e:
  ret void
}

; X86-LABEL:  x.cacs.tls:
; X86-LE-NEXT:  # %bb.0:
; X86-LE-NEXT:  movq %fs:0, %rax
; X86-LE-NEXT:  leaq x@TPOFF(%rax), %rax
; X86-LE-NEXT:  retq
; X86-GD:       leaq x@TLSGD(%rip), %rdi
; X86-GD:       callq __tls_get_addr@PLT
; X86-GD:       retq
; A64-LABEL:  x.cacs.tls:
; A64-LE-NEXT:  // %bb.0:
; A64-LE-NEXT:  mrs x8, TPIDR_EL0
; A64-LE-NEXT:  add x8, x8, :tprel_hi12:x
; A64-LE-NEXT:  add x0, x8, :tprel_lo12_nc:x
; A64-LE-NEXT:  ret
; A64-GD:       adrp x0, :tlsdesc:x
; A64-GD:       blr x1
; A64-GD:       mrs x8, TPIDR_EL0
; A64-GD-NEXT:  add x0, x8, x0
define internal noundef nonnull ptr @x.cacs.tls() unnamed_addr #0 {
entry:
  %p = call ptr @llvm.threadlocal.address.p0(ptr @x)
  ret ptr %p
}

declare ptr @llvm.threadlocal.address.p0(ptr)
attributes #0 = { noinline nounwind optnone willreturn memory(inaccessiblemem: read) "cacs-tls-accessor" "cacs-wrapper" }
