// With -fcoroutine-migration, a definition declared `const` or `pure` whose
// body may switch coroutines gets a warning at its declaration, and loses
// the attribute, on it and on the calls of it in the unit (pure-wrapper.c
// runs what this prevents). The rule for "may switch" is the pass's own: a
// call LLVM takes to write inaccessible memory (an unknown function, a
// volatile asm), through the unit's definitions; library functions LLVM
// knows, and the thread-local accessors the pass makes, are not switches.
//
// RUN: %clang -O2 -fcoroutine-migration -S -emit-llvm %s -o %t.ll 2> %t.err
// RUN: FileCheck %s --check-prefix=WARN --implicit-check-not=warning: < %t.err
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -fcoroutine-migration -S -emit-llvm %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARN --implicit-check-not=warning: %}
// Without the flag, nothing is said and the attributes stay:
// RUN: %clang -O2 -S -emit-llvm %s -o - 2>&1 | FileCheck %s --check-prefix=OFF --implicit-check-not=warning:
//
// WARN: pure-wrapper-warning.c:[[@LINE+4]]:37: warning: 'wait_yield' is declared 'pure' but may switch coroutines (it calls 'yield_now'); cacs ignores 'pure' here and in callers compiled with -fcoroutine-migration, but code compiled without it may keep errno's and thread-local addresses across the switch: remove it
// IR-LABEL: define {{.*}}i32 @wait_yield(
// IR:       call void @yield_now()
void yield_now(void);
__attribute__((pure, noinline)) int wait_yield(const int *flag) {
  while (!*flag)
    yield_now();
  return *flag;
}

// Two levels down, through a static helper, and an inline asm switch.
static __attribute__((noinline)) void asm_switch(void) {
  __asm__ volatile("" ::: "memory");
}
static __attribute__((noinline)) void helper(void) { asm_switch(); }
// WARN: pure-wrapper-warning.c:[[@LINE+1]]:39: warning: 'nested' is declared 'const' but may switch coroutines (it calls 'helper')
__attribute__((const, noinline)) long nested(long x) {
  helper();
  return x + 1;
}

// No switch: a library function LLVM knows, a helper without calls, and an
// accessor of a __thread variable (its body becomes a call of the pass's
// accessor, which is not a switch).
__attribute__((pure, noinline)) unsigned long length(const char *s) {
  return __builtin_strlen(s);
}
static __attribute__((noinline)) long twice(long x) { return 2 * x; }
__attribute__((const, noinline)) long pure_math(long x) {
  return twice(x) + 1;
}
__thread int tls;
__attribute__((const, noinline)) int *tls_address(void) { return &tls; }

// The callers: the calls of the switching wrappers lose the attribute too,
// so the two calls of wait_yield stay two (one, without the flag).
// IR-LABEL: define {{.*}}i32 @callers(
// IR:       call i32 @wait_yield(
// IR:       call i32 @wait_yield(
// OFF-LABEL: define {{.*}}i32 @callers(
// OFF:       call i32 @wait_yield(
// OFF-NOT:   call i32 @wait_yield(
// OFF:       ret i32
int callers(const int *flag, const char *s) {
  int a = wait_yield(flag);
  int b = wait_yield(flag);
  return a + b + (int)nested(a) + (int)length(s) + (int)pure_math(b) +
         *tls_address();
}
