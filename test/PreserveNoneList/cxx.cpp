// C++: free functions, member functions, templates and extern "C" functions,
// matched by mangled name, by demangled name and by glob.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: %clangxx -O1 -S -emit-llvm -o - %t/a.cpp -fpreserve-none-list=%t/list.txt \
// RUN:   -fno-preserve-none-list-export-warning | FileCheck %s

// By mangled name:
// CHECK-DAG: define {{.*}}preserve_nonecc {{.*}} @_Z4freei.preserve_none_list(
// By demangled name, member function:
// CHECK-DAG: define {{.*}}preserve_nonecc {{.*}} @_ZN4coro5Fiber6resumeEv.preserve_none_list(
// By demangled glob, every instance of a member function template:
// CHECK-DAG: define {{.*}}preserve_nonecc {{.*}} @_ZN4coro5Fiber4pushIiEEvT_.preserve_none_list(
// CHECK-DAG: define {{.*}}preserve_nonecc {{.*}} @_ZN4coro5Fiber4pushIdEEvT_.preserve_none_list(
// extern "C", by its plain name:
// CHECK-DAG: define {{.*}}preserve_nonecc {{.*}} @c_entry.preserve_none_list(
// Calls of each:
// CHECK-DAG: call preserve_nonecc {{.*}} @_Z4freei.preserve_none_list(
// CHECK-DAG: call preserve_nonecc {{.*}} @_ZN4coro5Fiber6resumeEv.preserve_none_list(
// CHECK-DAG: call preserve_nonecc {{.*}} @_ZN4coro5Fiber4pushIiEEvT_.preserve_none_list(
// CHECK-DAG: call preserve_nonecc {{.*}} @_ZN4coro5Fiber4pushIdEEvT_.preserve_none_list(
// CHECK-DAG: call preserve_nonecc {{.*}} @c_entry.preserve_none_list(
// By demangled name with parentheses, looked up by hash: that overload only.
// CHECK-DAG: define {{.*}}preserve_nonecc {{.*}} @_ZN2ns4pickEi.preserve_none_list(
// CHECK-DAG: define {{.*}}i32 @_ZN2ns4pickEl(
// CHECK-DAG: define {{.*}}i32 @_ZN2ns4pickEv(
// Not listed: the overload free(long), and the caller.
// CHECK-DAG: define {{.*}}i32 @_Z4freel(
// CHECK-DAG: define {{.*}}i32 @_Z6callerv(

//--- list.txt
# mangled
fun:_Z4freei
# demangled
fun:coro::Fiber::resume()
# demangled glob (templates demangle with their return type first)
fun:void coro::Fiber::push<*>(*)
# extern "C"
fun:c_entry
# demangled, an exact name: ( ) . + | ^ $ are plain characters in a glob
fun:ns::pick(int)

//--- a.cpp
namespace coro {
struct Fiber {
  int state = 0;
  __attribute__((noinline)) int resume() { return ++state; }
  template <class T> __attribute__((noinline)) void push(T v) { state += int(v); }
};
} // namespace coro
__attribute__((noinline)) int free(int x) { return x + 1; }
__attribute__((noinline)) int free(long x) { return int(x) + 2; }
extern "C" __attribute__((noinline)) int c_entry(int x) { return x * 2; }
namespace ns {
__attribute__((noinline)) int pick(int x) { return x; }
__attribute__((noinline)) int pick(long x) { return int(x); }
__attribute__((noinline)) int pick() { return 0; }
} // namespace ns
int caller() {
  coro::Fiber f;
  f.push(1);
  f.push(2.0);
  return f.resume() + free(1) + free(2L) + c_entry(3) + ns::pick(1) +
         ns::pick(2L) + ns::pick();
}
