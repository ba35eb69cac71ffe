// The set of live handles (lib/coro.c, issue 38): cacs_join finds its
// target's slot once, before it waits, and takes the handle out from that
// slot when the target has finished, unless the table changed meanwhile.
// Here it does while the joiner waits: the target creates enough
// coroutines to grow the table (its handle rehashed to another slot), or
// joins enough to halve it (the old slot may lie past the end). Every
// handle must still be joined exactly once: none taken out in another's
// place (its join would abort), none left behind (a second join of the
// target must abort naming it). Rounds of several sizes, so that a stale
// slot held another handle in some of them.
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: not --crash %t twice 2>&1 | FileCheck %s --check-prefix=TWICE
//
// CHECK: grow: every join 0, none left
// CHECK-NEXT: halve: every join 0, none left
// CHECK-NEXT: PASS
// TWICE: PASS
// TWICE-NEXT: cacs: cacs_join(0x{{[0-9a-f]+}}): not a coroutine of this thread that can still be joined or detached

#include "Inputs/check.h"
#include "cacs/coro.h"

#include <stdlib.h>
#include <string.h>

#define MAX 6000

static cacs_coro *many[MAX];
static long nmany;
static cacs_coro *target;
static int join_result;

static void nothing(void *arg) { (void)arg; }

// Grows the table: its own handle moves while its joiner waits.
static void create_many(void *arg) {
  nmany = (long)arg;
  for (long i = 0; i < nmany; ++i)
    many[i] = cacs_create(nothing, NULL, 0);
}

// Halves the table (more than 1,024 slots, down to an eighth full).
static void join_many(void *arg) {
  (void)arg;
  for (long i = 0; i < nmany; ++i)
    EXPECT(cacs_join(many[i]) == 0);
  nmany = 0;
}

static void join_target(void *arg) {
  (void)arg;
  join_result = cacs_join(target);
}

// The joiner first on the ring, so that it waits before the target runs.
static void round_with(cacs_entry_fn body, long n) {
  join_result = -2;
  cacs_coro *j = cacs_create(join_target, NULL, 0);
  target = cacs_create(body, (void *)n, 0);
  EXPECT(j && target);
  EXPECT(cacs_join(j) == 0);
  EXPECT(join_result == 0);
}

int main(int argc, char **argv) {
  static const long sizes[] = {700, 1500, 3000, 4000, 5000, 6000};
  cacs_coro *last = NULL;
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; ++k) {
    round_with(create_many, sizes[k]);
    for (long i = 0; i < nmany; ++i)
      EXPECT(cacs_join(many[i]) == 0);
  }
  EXPECT(cacs_count() == 0);
  printf("grow: every join %s, none left\n", failures ? "FAILED" : "0");
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; ++k) {
    nmany = sizes[k];
    for (long i = 0; i < nmany; ++i)
      EXPECT((many[i] = cacs_create(nothing, NULL, 0)) != NULL);
    round_with(join_many, 0);
    last = target;
  }
  EXPECT(cacs_count() == 0);
  printf("halve: every join %s, none left\n", failures ? "FAILED" : "0");
  printf("%s\n", failures ? "FAIL" : "PASS");
  fflush(stdout);
  if (argc > 1 && !strcmp(argv[1], "twice"))
    cacs_join(last); // joined already: aborts naming it
  return failures != 0;
}
