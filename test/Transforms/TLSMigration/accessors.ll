; Every thread-local address and the thread pointer become calls of a
; local accessor that reads inaccessible memory; the pass itself merges
; nothing. Uses without llvm.threadlocal.address (older bitcode, constant
; expressions) get it first.
;
; RUN: %opt_cacs -passes=tls-migration -S %s | FileCheck %s


@x = external thread_local global i32
@y = internal thread_local global [4 x i32] zeroinitializer

declare void @yield()

; Every definition is marked for the full-LTO link.
; CHECK-LABEL: define ptr @twice()
; CHECK-SAME:    #[[MARK:[0-9]+]] {
; CHECK-NEXT:    %a = call ptr @x.cacs.tls()
; CHECK-NEXT:    store i32 1, ptr %a
; CHECK-NEXT:    call void @yield()
; CHECK-NEXT:    %b = call ptr @x.cacs.tls()
; CHECK-NEXT:    store i32 2, ptr %b
; CHECK-NEXT:    ret ptr %b
define ptr @twice() {
  %a = call ptr @llvm.threadlocal.address.p0(ptr @x)
  store i32 1, ptr %a
  call void @yield()
  %b = call ptr @llvm.threadlocal.address.p0(ptr @x)
  store i32 2, ptr %b
  ret ptr %b
}

; CHECK-LABEL: define i32 @direct(
; CHECK-NEXT:    [[P:%.*]] = call ptr @y.cacs.tls()
; CHECK-NEXT:    store i32 1, ptr [[P]]
; CHECK-NEXT:    [[Q:%.*]] = call ptr @y.cacs.tls()
; CHECK-NEXT:    [[E:%.*]] = getelementptr inbounds [4 x i32], ptr [[Q]], i64 0, i64 2
; CHECK-NEXT:    %v = load i32, ptr [[E]]
; CHECK-NEXT:    ret i32 %v
define i32 @direct() {
  store i32 1, ptr @y
  %v = load i32, ptr getelementptr inbounds ([4 x i32], ptr @y, i64 0, i64 2)
  ret i32 %v
}

; CHECK-LABEL: define ptr @tp(
; CHECK-NEXT:    %t = call ptr @cacs.thread_pointer()
; CHECK-NEXT:    ret ptr %t
define ptr @tp() {
  %t = call ptr @llvm.thread.pointer()
  ret ptr %t
}

; One accessor a variable, its intrinsic inside.
; CHECK-LABEL: define internal noundef nonnull ptr @x.cacs.tls()
; CHECK-SAME:    #[[ACC:[0-9]+]] {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[A:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @x)
; CHECK-NEXT:    ret ptr [[A]]
; CHECK-NEXT:  }
; CHECK-LABEL: define internal noundef nonnull ptr @y.cacs.tls()
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[A:%.*]] = call ptr @llvm.threadlocal.address.p0(ptr @y)
; CHECK-NEXT:    ret ptr [[A]]
; CHECK-NEXT:  }
; CHECK-LABEL: define internal noundef nonnull ptr @cacs.thread_pointer()
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[T:%.*]] = call ptr @llvm.thread.pointer{{(.p0)?}}()
; CHECK-NEXT:    ret ptr [[T]]
; CHECK-NEXT:  }
; CHECK-NOT: define
; CHECK-DAG: attributes #[[ACC]] = { noinline nounwind optnone willreturn memory(inaccessiblemem: read) "cacs-tls-accessor" "cacs-wrapper" }
; CHECK-DAG: attributes #[[MARK]] = { "cacs-coroutine-migration" }

declare ptr @llvm.threadlocal.address.p0(ptr)
declare ptr @llvm.thread.pointer()
