// A shared object whose switches are entered by a jump (yields; performs
// and resumes of cacs/effect.h), bound lazily: no site's jump may go
// through a PLT entry, whose lazy resolver pushes below rsp (`push $index`)
// and so overwrote the resume address the site had stored at -8(%rsp): the
// first switch's coroutine, resumed, jumped to that index (SIGSEGV). The
// sites jump through the GOT, which the dynamic linker fills at load time.
// Two ways to be in another module than the entries:
//  - libcacs linked into the shared object (built with
//    -DCACS_TLS_INITIAL_EXEC, as docs/runtime.md says for shared objects;
//    effect_x86_64.S's assembly fast paths are off there, its _jmp entries
//    are the JUMP_TO ones into effect.c);
//  - libcacs in the executable (local-exec TLS: the assembly fast paths),
//    exported to the shared object, whose jumps to its entries stay
//    indirect (no relaxation across modules).
// The program's output is stock clang -O0's: two coroutines of different
// functions take turns with the caller, each keeping values across its
// yields; then effects: mutable state handled one up, a handler two up
// through a middle one, a generator, a throw from a few frames deep, and a
// call handler (the perform's slow branch that calls on the performer's
// stack).
//
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %stock_clang -O0 -I%cacs_include -DLIB -DMAIN %s %cacs_rt_x86_64 -o %t.ref
// RUN: %t.ref > %t.want
// RUN: %clang -O2 -fPIC -fswitch-site-jumps -Rpass=switch-site-jump -I%cacs_include -DLIB -c %s -o %t.lib.o 2>%t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
//
// libcacs in the shared object:
// RUN: %clang -shared -Wl,-z,lazy %t.lib.o $(%cacs_rt_objs %clang -O2 -fPIC -DCACS_TLS_INITIAL_EXEC -I%cacs_include) -lpthread -o %t.dir/libsl.so
// RUN: %clang -O2 -DMAIN %s -L%t.dir -lsl -Wl,-rpath,%t.dir -o %t.exe
// RUN: env -u LD_BIND_NOW %t.exe | diff %t.want -
// RUN: llvm-objdump -d --no-show-raw-insn %t.dir/libsl.so | FileCheck %s
//
// libcacs in the executable, its entries exported to the shared object:
// RUN: %clang -shared -Wl,-z,lazy %t.lib.o -o %t.dir/libsl2.so
// RUN: %clang -O2 -DMAIN %s -Wl,--export-dynamic -Wl,--whole-archive %cacs_rt_x86_64 -Wl,--no-whole-archive -lpthread -L%t.dir -lsl2 -Wl,-rpath,%t.dir -o %t.exe2
// RUN: env -u LD_BIND_NOW %t.exe2 | diff %t.want -
// RUN: llvm-objdump -d --no-show-raw-insn %t.dir/libsl2.so | FileCheck %s
//
// The shared objects' sites read the entries from the GOT; no PLT entry of
// them:
// CHECK-NOT:     {{<cacs__(yield|effect_perform|effect_resume)_pn_jmp@plt>:}}
// CHECK-LABEL: <adder>:
// CHECK:         movq %r11, -0x8(%rsp)
// CHECK-NEXT:    jmpq *{{.*}}(%rip)
// CHECK-LABEL: <counter>:
// CHECK:         movq %r11, -0x8(%rsp)
// CHECK-NEXT:    jmpq *{{.*}}(%rip)
// CHECK-NOT:     {{<cacs__(yield|effect_perform|effect_resume)_pn_jmp@plt>:}}
//
// REMARK-DAG: cacs_yield is entered by a jump at this site
// REMARK-DAG: cacs_effect_perform is entered by a jump at this site
// REMARK-DAG: cacs_effect_resume is entered by a jump at this site

#include "cacs/coro.h"
#include "cacs/effect.h"

#include <stdio.h>

CACS_EFFECT(get, int, int);
CACS_EFFECT(put, int, int);
CACS_EFFECT(ask, int, int);
CACS_EFFECT(next, long, int);
CACS_EFFECT(raise, int, int);

int run(void);

#ifdef LIB
static long out[64];
static int nout;

// Different functions on each side, values live across every yield.
__attribute__((noinline)) static void adder(void *arg) {
  long a = (long)arg, b = a * 3 + 1;
  for (int i = 0; i < 5; ++i) {
    out[nout++] = a + b * i;
    cacs_yield();
    b += a;
  }
}

__attribute__((noinline)) static void muller(void *arg) {
  long m = (long)arg;
  double d = 1.5;
  for (int i = 0; i < 5; ++i) {
    out[nout++] = m;
    cacs_yield();
    m = m * 7 % 1000003;
    d *= 2;
    out[nout++] = (long)d;
  }
}

// Get and put handled one up (or put by a call handler); ask two up.
__attribute__((noinline)) static void *counter(void *arg) {
  long n = (long)arg, a = 0;
  for (long i = 0; i < n; i++) {
    int v = CACS_PERFORM(get, 0);
    CACS_PERFORM(put, v + 3);
    if (i % 4 == 1)
      a = a * 5 + CACS_PERFORM(ask, (int)i);
  }
  return (void *)(a % 1000003 + CACS_PERFORM(get, 0));
}

// What middle answers a get or put of counter's with: the cell (read by
// the performer as it resumes), or nothing, the cell set.
static const void *state_answer(cacs_effect_request r, int *cell) {
  if (r.effect == &CACS_EFFECT_OF(put)) {
    *cell = *(int *)r.payload;
    return NULL;
  }
  return cell;
}

// Handles get and put for counter; ask goes up to effects().
static void *middle(void *arg) {
  int cell = 7;
  cacs_effect_coro *k = cacs_effect_create(counter, arg, 0);
  cacs_effect_request r = cacs_effect_resume(k, CACS_HANDLES(get, put), NULL);
  while (r.effect)
    r = cacs_effect_resume(k, CACS_HANDLES(get, put), state_answer(r, &cell));
  cacs_effect_destroy(k);
  return (void *)((long)r.payload * 1000 + cell);
}

// A generator: the Collatz sequence from arg.
static void *numbers(void *arg) {
  for (long x = (long)arg; x != 1; x = x % 2 ? 3 * x + 1 : x / 2)
    CACS_PERFORM(next, x);
  return NULL;
}

static int deep(int n) {
  if (n == 0)
    return CACS_PERFORM(raise, 42);
  return deep(n - 1) + 1;
}
static void *thrower(void *arg) {
  deep((int)(long)arg);
  printf("not reached\n");
  return NULL;
}

static const void *put_fn(void *payload, void *env) {
  *(int *)env += *(int *)payload;
  return env;
}

static int effects(void) {
  // State and a handler two up.
  cacs_effect_coro *m = cacs_effect_create(middle, (void *)30, 0);
  int answer = 0, asks = 0;
  cacs_effect_request r = cacs_effect_resume(m, CACS_HANDLES(ask), NULL);
  while (r.effect) {
    answer = *(int *)r.payload * 3 + asks++;
    r = cacs_effect_resume(m, CACS_HANDLES(ask), &answer);
  }
  printf("state: %ld, %d asks\n", (long)r.payload, asks);
  cacs_effect_destroy(m);

  // A generator.
  cacs_effect_coro *g = cacs_effect_create(numbers, (void *)27, 0);
  long sum = 0;
  int n = 0;
  for (r = cacs_effect_resume(g, CACS_HANDLES(next), NULL); r.effect;
       r = cacs_effect_resume(g, CACS_HANDLES(next), NULL), n++)
    sum = (sum * 7 + *(long *)r.payload) % 1000003;
  printf("generator: %d values, sum %ld\n", n, sum);
  cacs_effect_destroy(g);

  // A throw: never resumed, destroyed.
  for (int i = 0; i < 3; i++) {
    cacs_effect_coro *t = cacs_effect_create(thrower, (void *)(long)i, 0);
    r = cacs_effect_resume(t, CACS_HANDLES(raise), NULL);
    printf("throw %d: raised %d, done %d\n", i, *(int *)r.payload,
           cacs_effect_done(t));
    cacs_effect_destroy(t);
  }

  // Put by a call handler on the performer's stack, get and ask by
  // switches.
  int cell = 1, answer2 = 0, gets = 0;
  cacs_effect_coro *c = cacs_effect_create(counter, (void *)20, 0);
  const cacs_effect_call *calls = CACS_CALLS(CACS_CALL(put, put_fn, &cell));
  r = cacs_effect_resume_with(c, CACS_HANDLES(get, ask), calls, NULL);
  while (r.effect) {
    answer2 = r.effect == &CACS_EFFECT_OF(get) ? cell % 1000 : 5;
    gets++;
    r = cacs_effect_resume_with(c, CACS_HANDLES(get, ask), calls, &answer2);
  }
  printf("calls: %ld, cell %d, %d requests\n", (long)r.payload, cell, gets);
  cacs_effect_destroy(c);
  return (int)(sum % 1000);
}

int run(void) {
  cacs_coro *a = cacs_create(adder, (void *)11L, 0);
  cacs_coro *b = cacs_create(muller, (void *)5L, 0);
  for (int i = 0; i < 8; ++i)
    cacs_yield();
  cacs_join(a);
  cacs_join(b);
  long sum = 0;
  for (int i = 0; i < nout; ++i) {
    printf("%ld ", out[i]);
    sum += out[i];
  }
  printf("\n");
  return (int)((sum + effects()) % 1000);
}
#endif

#ifdef MAIN
int main(void) {
  printf("run: %d\n", run());
  return 0;
}
#endif
