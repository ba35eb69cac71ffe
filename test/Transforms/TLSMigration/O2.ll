; Through the -O2 pipeline: thread-local addresses and errno are reused
; between calls that cannot switch (here a call that reads and writes its
; argument only), and computed again after every call that may switch (an unknown
; function); a loop that switches computes them in every iteration, and
; &x before a switch is not folded to &x after it. Stock opt reuses them all.
;
; RUN: %opt_cacs -cacs-coroutine-migration -passes='default<O2>' -S %s | FileCheck %s
; RUN: opt -passes='default<O2>' -S %s | FileCheck %s --check-prefix=STOCK

target triple = "x86_64-pc-linux-gnu"

@x = external thread_local global i32

declare void @yield()
declare void @fill(ptr) memory(argmem: readwrite) nounwind willreturn
declare ptr @__errno_location() nounwind willreturn memory(none)

; CHECK-LABEL: define void @regions(
; CHECK-NEXT:    [[E:%.*]] = tail call ptr @__errno_location()
; CHECK-NEXT:    tail call void @fill(ptr {{(nonnull )?}}[[E]])
; CHECK-NEXT:    tail call void @fill(ptr {{(nonnull )?}}[[E]])
; CHECK-NEXT:    [[A:%.*]] = tail call fastcc ptr @x.cacs.tls()
; CHECK-NEXT:    tail call void @fill(ptr {{(nonnull )?}}[[A]])
; CHECK-NEXT:    tail call void @fill(ptr {{(nonnull )?}}[[A]])
; CHECK-NEXT:    tail call void @yield()
; CHECK-NEXT:    [[B:%.*]] = tail call fastcc ptr @x.cacs.tls()
; CHECK-NEXT:    tail call void @fill(ptr {{(nonnull )?}}[[B]])
; CHECK-NEXT:    [[F:%.*]] = tail call ptr @__errno_location()
; CHECK-NEXT:    tail call void @fill(ptr {{(nonnull )?}}[[F]])
; CHECK-NEXT:    ret void
; STOCK-LABEL: define void @regions(
; STOCK-NEXT:    [[E:%.*]] = tail call ptr @__errno_location()
; STOCK-NEXT:    tail call void @fill(ptr {{(nonnull )?}}[[E]])
; STOCK-NEXT:    tail call void @fill(ptr {{(nonnull )?}}[[E]])
; STOCK-NEXT:    [[A:%.*]] = tail call {{.*}}ptr @llvm.threadlocal.address.p0(ptr @x)
; STOCK-NEXT:    tail call void @fill(ptr {{(nonnull )?}}[[A]])
; STOCK-NEXT:    tail call void @fill(ptr {{(nonnull )?}}[[A]])
; STOCK-NEXT:    tail call void @yield()
; STOCK-NEXT:    tail call void @fill(ptr {{(nonnull )?}}[[A]])
; STOCK-NEXT:    tail call void @fill(ptr {{(nonnull )?}}[[E]])
; STOCK-NEXT:    ret void
define void @regions() {
  %e1 = call ptr @__errno_location()
  call void @fill(ptr %e1)
  %e2 = call ptr @__errno_location()
  call void @fill(ptr %e2)
  %a1 = call ptr @llvm.threadlocal.address.p0(ptr @x)
  call void @fill(ptr %a1)
  %a2 = call ptr @llvm.threadlocal.address.p0(ptr @x)
  call void @fill(ptr %a2)
  call void @yield()
  %a3 = call ptr @llvm.threadlocal.address.p0(ptr @x)
  call void @fill(ptr %a3)
  %e3 = call ptr @__errno_location()
  call void @fill(ptr %e3)
  ret void
}

; CHECK-LABEL: define noundef i1 @compare(
; CHECK-NEXT:    [[A:%.*]] = tail call fastcc ptr @x.cacs.tls()
; CHECK-NEXT:    tail call void @yield()
; CHECK-NEXT:    [[B:%.*]] = tail call fastcc ptr @x.cacs.tls()
; CHECK-NEXT:    [[C:%.*]] = icmp eq ptr [[A]], [[B]]
; CHECK-NEXT:    ret i1 [[C]]
; STOCK-LABEL: define noundef i1 @compare(
; STOCK-NEXT:    tail call void @yield()
; STOCK-NEXT:    ret i1 true
define i1 @compare() {
  %a = call ptr @llvm.threadlocal.address.p0(ptr @x)
  call void @yield()
  %b = call ptr @llvm.threadlocal.address.p0(ptr @x)
  %c = icmp eq ptr %a, %b
  ret i1 %c
}

; CHECK-LABEL: define void @loop(
; CHECK:       l:
; CHECK-NEXT:    %i = phi i32
; CHECK-NEXT:    [[P:%.*]] = tail call fastcc ptr @x.cacs.tls()
; CHECK-NEXT:    store i32 %i, ptr [[P]]
; CHECK-NEXT:    tail call void @yield()
; STOCK-LABEL: define void @loop(
; STOCK-NEXT:  entry:
; STOCK-NEXT:    [[P:%.*]] = tail call {{.*}}ptr @llvm.threadlocal.address.p0(ptr @x)
; STOCK-NEXT:    br label %l
define void @loop(i32 %n) {
entry:
  br label %l
l:
  %i = phi i32 [ 0, %entry ], [ %i1, %l ]
  %p = call ptr @llvm.threadlocal.address.p0(ptr @x)
  store i32 %i, ptr %p
  call void @yield()
  %i1 = add i32 %i, 1
  %c = icmp eq i32 %i1, %n
  br i1 %c, label %e, label %l
e:
  ret void
}

declare ptr @llvm.threadlocal.address.p0(ptr)
