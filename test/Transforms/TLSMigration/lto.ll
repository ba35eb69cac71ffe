; The full-LTO link rewrites, at its start, the functions compiled with
; -fcoroutine-migration (marked): @plain's intrinsics (say, inlined at the
; link) get the accessor a compile step made, and that accessor survives the
; link's inliner and attribute inference (@compiled): after the yield, both
; compute the address again. A function compiled without the flag (@stock)
; is left as stock clang leaves it.
;
; RUN: %opt_cacs -passes='lto<O2>' -S %s | FileCheck %s
; RUN: opt -passes='lto<O2>' -S %s | FileCheck %s --check-prefix=STOCK

target triple = "x86_64-pc-linux-gnu"

@x = thread_local global i32 0

declare void @yield()

; CHECK-LABEL: define void @plain(
; CHECK-NEXT:    [[A:%.*]] = tail call fastcc ptr @x.cacs.tls.1()
; CHECK-NEXT:    store i32 1, ptr [[A]]
; CHECK-NEXT:    tail call void @yield()
; CHECK-NEXT:    [[B:%.*]] = tail call fastcc ptr @x.cacs.tls.1()
; CHECK-NEXT:    store i32 2, ptr [[B]]
; CHECK-NEXT:    ret void
; STOCK-LABEL: define void @plain(
; STOCK-NEXT:    [[A:%.*]] = tail call {{.*}}ptr @llvm.threadlocal.address.p0(ptr @x)
; STOCK-NEXT:    store i32 1, ptr [[A]]
; STOCK-NEXT:    tail call void @yield()
; STOCK-NEXT:    store i32 2, ptr [[A]]
; STOCK-NEXT:    ret void
define void @plain() #1 {
  %a = call ptr @llvm.threadlocal.address.p0(ptr @x)
  store i32 1, ptr %a
  call void @yield()
  %b = call ptr @llvm.threadlocal.address.p0(ptr @x)
  store i32 2, ptr %b
  ret void
}

; CHECK-LABEL: define void @compiled(
; CHECK-NEXT:    [[A:%.*]] = tail call fastcc ptr @x.cacs.tls.1()
; CHECK-NEXT:    store i32 1, ptr [[A]]
; CHECK-NEXT:    tail call void @yield()
; CHECK-NEXT:    [[B:%.*]] = tail call fastcc ptr @x.cacs.tls.1()
; CHECK-NEXT:    store i32 2, ptr [[B]]
; CHECK-NEXT:    ret void
define void @compiled() #1 {
  %a = call ptr @x.cacs.tls.1()
  store i32 1, ptr %a
  call void @yield()
  %b = call ptr @x.cacs.tls.1()
  store i32 2, ptr %b
  ret void
}

; CHECK-LABEL: define void @stock(
; CHECK-NEXT:    [[A:%.*]] = tail call {{.*}}ptr @llvm.threadlocal.address.p0(ptr @x)
; CHECK-NEXT:    store i32 1, ptr [[A]]
; CHECK-NEXT:    tail call void @yield()
; CHECK-NEXT:    store i32 2, ptr [[A]]
; CHECK-NEXT:    ret void
define void @stock() {
  %a = call ptr @llvm.threadlocal.address.p0(ptr @x)
  store i32 1, ptr %a
  call void @yield()
  %b = call ptr @llvm.threadlocal.address.p0(ptr @x)
  store i32 2, ptr %b
  ret void
}

; CHECK-LABEL: define internal fastcc noundef nonnull ptr @x.cacs.tls.1()
; CHECK-SAME:    #[[ACC:[0-9]+]]
; CHECK-NOT:   define
; CHECK:       attributes #[[ACC]] = { noinline {{(norecurse )?}}nounwind optnone willreturn memory(inaccessiblemem: read) "cacs-tls-accessor"
define internal noundef nonnull ptr @x.cacs.tls.1() unnamed_addr #0 {
entry:
  %p = call ptr @llvm.threadlocal.address.p0(ptr @x)
  ret ptr %p
}

declare ptr @llvm.threadlocal.address.p0(ptr)
attributes #0 = { noinline nounwind optnone willreturn memory(inaccessiblemem: read) "cacs-tls-accessor" "cacs-wrapper" }
attributes #1 = { "cacs-coroutine-migration" }
