// cacs_name and cacs_id of shared-stack coroutines give what they give for
// coroutines on stacks of their own, though a shared-stack coroutine keeps
// no name inline (its control block stops at its name's pointer): the
// default "coro#<id>", a given name, one truncated to 39 characters, a
// rename, the empty name; the coroutines created in a row with the same
// name share its one copy. Valgrind: nothing lost or misread.
//
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: %t | FileCheck %s
// RUN: %clang %aarch64_flags -O1 -I%cacs_include %s %cacs_rt_aarch64 -o %ta
// RUN: %run_aarch64 %ta | FileCheck %s
// RUN: %clang -O1 -gdwarf-4 -I%cacs_include %s %cacs_rt_x86_64 -o %tvg
// RUN: valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite %tvg 2>%t.vg | FileCheck %s
// RUN: not grep -q . %t.vg
//
// CHECK: private: default=ok given=conn long=012345678901234567890123456789012345678 renamed=worker empty=[]
// CHECK-NEXT: shared: default=ok given=conn long=012345678901234567890123456789012345678 renamed=worker empty=[]
// CHECK-NEXT: shared: one copy of a name given in a row: yes
// CHECK-NEXT: PASS

#include "cacs/coro.h"
#include "cacs/stack.h"

#include <stdio.h>
#include <string.h>

static void body(void *arg) {
  (void)arg;
  cacs_yield();
}

static int bad;

static void run(const char *label, unsigned stack_flags) {
  cacs_coro_attr plain = {0, stack_flags, 0, NULL};
  cacs_coro_attr named = {0, stack_flags, 0, "conn"};
  cacs_coro_attr longer = {
      0, stack_flags, 0, "0123456789012345678901234567890123456789abcdef"};
  cacs_coro *d = cacs_create_ex(body, NULL, &plain);
  cacs_coro *g = cacs_create_ex(body, NULL, &named);
  cacs_coro *l = cacs_create_ex(body, NULL, &longer);
  cacs_coro *r = cacs_create_ex(body, NULL, &named);
  cacs_coro *e = cacs_create_ex(body, NULL, &named);
  if (!d || !g || !l || !r || !e) {
    perror("cacs_create_ex");
    bad++;
    return;
  }
  char want[32];
  snprintf(want, sizeof want, "coro#%llu", (unsigned long long)cacs_id(d));
  // The same string at every request, as a name kept inline is.
  int default_ok = !strcmp(cacs_name(d), want) && cacs_name(d) == cacs_name(d);
  int one_copy = cacs_name(r) == cacs_name(e); // created in a row
  cacs_yield(); // all run, each with its name
  cacs_set_name(r, "worker");
  cacs_set_name(e, NULL);
  printf("%s: default=%s given=%s long=%s renamed=%s empty=[%s]\n", label,
         default_ok ? "ok" : "WRONG", cacs_name(g), cacs_name(l), cacs_name(r),
         cacs_name(e));
  if (stack_flags & CACS_STACK_SHARED)
    printf("%s: one copy of a name given in a row: %s\n", label,
           one_copy ? "yes" : "no");
  cacs_join(d);
  cacs_join(g);
  cacs_join(l);
  cacs_join(r);
  cacs_join(e);
}

int main(void) {
  run("private", 0);
  run("shared", CACS_STACK_SHARED);
  puts(bad ? "FAIL" : "PASS");
  return 0;
}
