// With -fcoroutine-migration, a call of a function declared `pure` or
// `const` whose body is in another unit may hide a switch (pure-wrapper-
// other-unit.c runs it): cacs adds "may write inaccessible memory" to the
// call and the declaration, so the thread-local accessor is called again
// after it, and nothing else changes: the load of an ordinary global is
// still reused across it. Library functions LLVM knows are believed. A
// `pure` definition whose body calls such a declaration is widened the
// same way, without a warning.
//
// RUN: %clang -O2 -fcoroutine-migration -S -emit-llvm %s -o %t.ll 2> %t.err
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=ATTR < %t.ll
// RUN: FileCheck %s --check-prefix=ERR --allow-empty --implicit-check-not=warning: < %t.err
// RUN: %clang -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF
// ERR-NOT: warning:

__thread int tls;
int global;
int wait_flag(const int *flag) __attribute__((pure));
int wait_const(void) __attribute__((const));
unsigned long strlen(const char *);

// CHECK-LABEL: define {{.*}}i32 @pure_call(
// CHECK-NEXT:    [[A:%.*]] = tail call fastcc ptr @tls.cacs.tls()
// CHECK-NEXT:    [[V:%.*]] = load i32, ptr [[A]]
// CHECK-NEXT:    [[G:%.*]] = load i32, ptr @global
// CHECK-NEXT:    [[R:%.*]] = tail call i32 @wait_flag(ptr noundef {{%.*}}) #[[WIDE_READ:[0-9]+]]
// CHECK-NEXT:    [[B:%.*]] = tail call fastcc ptr @tls.cacs.tls()
// CHECK-NEXT:    [[W:%.*]] = load i32, ptr [[B]]
// CHECK-NEXT:    [[S1:%.*]] = shl i32 [[G]], 1
// CHECK-NEXT:    [[S2:%.*]] = add i32 [[R]], [[V]]
// CHECK-NEXT:    [[S3:%.*]] = add i32 [[S2]], [[S1]]
// CHECK-NEXT:    [[S4:%.*]] = add i32 [[S3]], [[W]]
// CHECK-NEXT:    ret i32 [[S4]]
// OFF-LABEL: define {{.*}}i32 @pure_call(
// OFF:         tail call {{.*}}@llvm.threadlocal.address
// OFF-NOT:     @llvm.threadlocal.address
// OFF:         ret i32
int pure_call(const int *flag) {
  int a = tls, g = global;
  int r = wait_flag(flag);
  return a + g + r + tls + global;
}

// CHECK-LABEL: define {{.*}}i32 @const_call(
// CHECK-NEXT:    [[A:%.*]] = tail call fastcc ptr @tls.cacs.tls()
// CHECK-NEXT:    [[V:%.*]] = load i32, ptr [[A]]
// CHECK-NEXT:    [[R:%.*]] = tail call i32 @wait_const() #[[WIDE_NONE:[0-9]+]]
// CHECK-NEXT:    [[S1:%.*]] = add nsw i32 [[R]], [[V]]
// CHECK-NEXT:    [[B:%.*]] = tail call fastcc ptr @tls.cacs.tls()
// CHECK-NEXT:    [[W:%.*]] = load i32, ptr [[B]]
// CHECK-NEXT:    [[S2:%.*]] = add nsw i32 [[S1]], [[W]]
// CHECK-NEXT:    ret i32 [[S2]]
int const_call(void) {
  int a = tls;
  int r = wait_const();
  return a + r + tls;
}

// strlen is a library function: the address is computed once.
// CHECK-LABEL: define {{.*}}i64 @library_call(
// CHECK-NEXT:    [[A:%.*]] = tail call fastcc ptr @tls.cacs.tls()
// CHECK-NEXT:    [[V:%.*]] = load i32, ptr [[A]]
// CHECK-NEXT:    [[N:%.*]] = tail call i64 @strlen(
// CHECK-NEXT:    [[X:%.*]] = sext i32 [[V]] to i64
// CHECK-NEXT:    [[Y:%.*]] = shl nsw i64 [[X]], 1
// CHECK-NEXT:    [[S:%.*]] = add i64 [[Y]], [[N]]
// CHECK-NEXT:    ret i64 [[S]]
unsigned long library_call(const char *s) {
  int a = tls;
  unsigned long n = strlen(s);
  return a + n + tls;
}

// A `pure` wrapper of the declaration: no warning (its attribute may be
// true), but its callers re-read the address after it.
__attribute__((pure, noinline)) int wrapper(const int *flag) {
  return wait_flag(flag) + 1;
}
// CHECK-LABEL: define {{.*}}i32 @wrapper_call(
// CHECK-NEXT:    [[A:%.*]] = tail call fastcc ptr @tls.cacs.tls()
// CHECK-NEXT:    [[V:%.*]] = load i32, ptr [[A]]
// CHECK-NEXT:    [[R:%.*]] = tail call i32 @wrapper(ptr noundef {{%.*}}) #[[WIDE_READ]]
// CHECK-NEXT:    [[S1:%.*]] = add nsw i32 [[R]], [[V]]
// CHECK-NEXT:    [[B:%.*]] = tail call fastcc ptr @tls.cacs.tls()
// CHECK-NEXT:    [[W:%.*]] = load i32, ptr [[B]]
// CHECK-NEXT:    [[S2:%.*]] = add nsw i32 [[S1]], [[W]]
// CHECK-NEXT:    ret i32 [[S2]]
int wrapper_call(const int *flag) {
  int a = tls;
  int r = wrapper(flag);
  return a + r + tls;
}

// The declarations and the wrapper, not only their calls:
// ATTR: declare i32 @wait_flag(ptr noundef) {{.*}}#[[DECL_READ:[0-9]+]]
// ATTR: declare i32 @wait_const() {{.*}}#[[DECL_NONE:[0-9]+]]
// ATTR: define {{.*}}i32 @wrapper(ptr noundef {{%.*}}) {{.*}}#[[DEF_READ:[0-9]+]]
// ATTR-DAG: attributes #[[DECL_READ]] = { {{.*}}memory(read, inaccessiblemem: readwrite)
// ATTR-DAG: attributes #[[DECL_NONE]] = { {{.*}}memory(inaccessiblemem: readwrite)
// ATTR-DAG: attributes #[[DEF_READ]] = { {{.*}}memory(read, inaccessiblemem: readwrite)
//
// CHECK-DAG: attributes #[[WIDE_READ]] = { {{.*}}memory(read, inaccessiblemem: readwrite)
// CHECK-DAG: attributes #[[WIDE_NONE]] = { {{.*}}memory(inaccessiblemem: readwrite)
