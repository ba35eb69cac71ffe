; A call of a function declared `const` (memory(none)) may depend on the
; thread when the function returns a pointer (glibc's __errno_location and
; its kind, a program's accessor of a __thread variable) or is a thread
; identity (pthread_self, thrd_current): the call and the declaration then
; read inaccessible memory. Intrinsics and library functions LLVM knows
; (their result depends on the arguments only) keep memory(none). Other
; const functions whose body the module cannot see may hide a switch
; (test/TLSMigration/pure-declaration.c): they may write inaccessible memory
; too.
;
; RUN: %opt_cacs -passes=tls-migration -S %s | FileCheck %s

target triple = "x86_64-pc-linux-gnu"

; CHECK: declare ptr @__errno_location() #[[READ:[0-9]+]]
declare ptr @__errno_location() #0
; CHECK: declare ptr @__h_errno_location() #[[READ]]
declare ptr @__h_errno_location() #0
; CHECK: declare i64 @pthread_self() #[[READ]]
declare i64 @pthread_self() #0
; CHECK: declare i32 @square(i32) #[[WIDE:[0-9]+]]
declare i32 @square(i32) #0
; CHECK: declare double @sqrt(double) #[[NONE:[0-9]+]]
declare double @sqrt(double) #0
; A declaration no call uses keeps its attributes (the LTO link runs the
; pass again).
; CHECK: declare ptr @__res_state() #[[NONE]]
declare ptr @__res_state() #0

; CHECK-LABEL: define i32 @uses(
; CHECK-NEXT:    %e = call ptr @__errno_location() #[[READ]]
; CHECK-NEXT:    %h = call ptr @__h_errno_location() #[[READ]]
; CHECK-NEXT:    %t = call i64 @pthread_self() #[[READ]]
; CHECK-NEXT:    %s = call i32 @square(i32 3) #[[WIDE]]
; CHECK-NEXT:    %r = call double @sqrt(double 2.0{{.*}}) #[[NONE]]
; CHECK-NEXT:    %i = call ptr %fp() #[[READ]]
; CHECK-NEXT:    %j = call i64 %gp() #[[WIDE]]
; CHECK-NEXT:    ret i32 %s
define i32 @uses(ptr %fp, ptr %gp) {
  %e = call ptr @__errno_location() #0
  %h = call ptr @__h_errno_location() #0
  %t = call i64 @pthread_self() #0
  %s = call i32 @square(i32 3) #0
  %r = call double @sqrt(double 2.0) #0
  %i = call ptr %fp() #0
  %j = call i64 %gp() #0
  ret i32 %s
}

; A definition declared const that returns a __thread variable's address:
; its body calls the accessor and its callers read inaccessible memory.
@tls = thread_local global i32 0

; CHECK-LABEL: define ptr @my_tls()
; CHECK-SAME:    #[[MYTLS:[0-9]+]] {
; CHECK-NEXT:    [[P:%.*]] = call ptr @tls.cacs.tls()
; CHECK-NEXT:    ret ptr [[P]]
define ptr @my_tls() #0 {
  %p = call ptr @llvm.threadlocal.address.p0(ptr @tls)
  ret ptr %p
}

; CHECK-LABEL: define ptr @calls_my_tls(
; CHECK-NEXT:    %p = call ptr @my_tls() #[[READ]]
; CHECK-NEXT:    ret ptr %p
define ptr @calls_my_tls() {
  %p = call ptr @my_tls() #0
  ret ptr %p
}

; CHECK-DAG: attributes #[[READ]] = { nounwind willreturn memory(inaccessiblemem: read) }
; CHECK-DAG: attributes #[[NONE]] = { nounwind willreturn memory(none) }
; CHECK-DAG: attributes #[[WIDE]] = { nounwind willreturn memory(inaccessiblemem: readwrite) }
; CHECK-DAG: attributes #[[MYTLS]] = { nounwind willreturn memory(inaccessiblemem: read) "cacs-coroutine-migration" }

declare ptr @llvm.threadlocal.address.p0(ptr)
attributes #0 = { nounwind willreturn memory(none) }
