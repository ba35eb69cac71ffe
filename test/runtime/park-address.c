// The address of a waiting call is its default-convention symbol under every
// compiler: cacs_yield, cacs_sleep (cacs/coro.h), cacs_read (cacs/io.h) and
// cacs_sem_wait (cacs/sync.h) called through a cast to a plain function
// pointer, through __typeof__ pointers that the other unit filled (built by
// another compiler: gcc sees the default convention for the same
// declarations), and through a void * round trip, each from a coroutine
// with values live in every register the compiler allocates while a
// trasher puts garbage in them before each switch back. Through a
// preserve_none entry the arguments would arrive in the wrong registers (a
// garbage timeout or descriptor) and the callee-saved registers would come
// back clobbered. The reference binds no call to a preserve_none entry
// (CACS_YIELD_FULL_SAVE=1).
//
// RUN: %stock_clang -O0 -DCACS_YIELD_FULL_SAVE=1 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %tref && %tref > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: %clang -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t0 && %t0 | diff %t.ref -
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t2 && %t2 | diff %t.ref -
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ta && %ta | diff %t.ref -
// RUN: %stock_clang -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ts0 && %ts0 | diff %t.ref -
// RUN: %stock_clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ts2 && %ts2 | diff %t.ref -
// RUN: %stock_clang -O2 -DCACS_YIELD_SAVE_BP=0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %tsu && %tsu | diff %t.ref -
// RUN: %if gcc %{ gcc -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %tg && %tg | diff %t.ref - %}
// The table of pointers filled by one compiler, called through by another:
// RUN: %if gcc %{ gcc -O2 -DFILL_ONLY -I%cacs_include -c %s -o %t.fill-gcc.o %}
// RUN: %if gcc %{ %clang -O2 -DCALL_ONLY -fauto-preserve-none -I%cacs_include %s %t.fill-gcc.o %cacs_io_x86_64 %cacs_rt_x86_64 -o %tx1 && %tx1 | diff %t.ref - %}
// RUN: %if gcc %{ %clang -O2 -DFILL_ONLY -I%cacs_include -c %s -o %t.fill-cacs.o %}
// RUN: %if gcc %{ gcc -O2 -DCALL_ONLY -I%cacs_include %s %t.fill-cacs.o %cacs_io_x86_64 %cacs_rt_x86_64 -o %tx2 && %tx2 | diff %t.ref - %}
// RUN: %stock_clang -O2 -DFILL_ONLY -I%cacs_include -c %s -o %t.fill-stock.o
// RUN: %clang -O0 -DCALL_ONLY -I%cacs_include %s %t.fill-stock.o %cacs_io_x86_64 %cacs_rt_x86_64 -o %tx3 && %tx3 | diff %t.ref -
//
// CHECK: cast yield
// CHECK-NEXT: cast sleep 0
// CHECK-NEXT: cast read 1 a
// CHECK-NEXT: cast sem_wait 0
// CHECK-NEXT: table yield
// CHECK-NEXT: table sleep 0
// CHECK-NEXT: table read 1 b
// CHECK-NEXT: table sem_wait 0
// CHECK-NEXT: void* yield
// CHECK-NEXT: void* sleep 0
// CHECK-NEXT: void* read 1 c
// CHECK-NEXT: void* sem_wait 0
// CHECK-NEXT: PASS

#include "cacs/coro.h"
#include "cacs/io.h"
#include "cacs/sync.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

// The addresses, as another unit may hold them.
struct waits {
  __typeof__(cacs_yield) *yield;
  __typeof__(cacs_sleep) *sleep;
  __typeof__(cacs_read) *read;
  __typeof__(cacs_sem_wait) *sem_wait;
};
void fill_waits(struct waits *w);

#ifndef CALL_ONLY
void fill_waits(struct waits *w) {
  w->yield = cacs_yield;
  w->sleep = &cacs_sleep;
  w->read = cacs_read;
  w->sem_wait = cacs_sem_wait;
}
#endif

#ifndef FILL_ONLY
#include "Inputs/address-test.h"

typedef void (*yield_fn)(void);
typedef int (*sleep_fn)(int64_t);
typedef ssize_t (*read_fn)(int, void *, size_t, int64_t);
typedef int (*sem_wait_fn)(cacs_sem *, int64_t);

static struct waits table;
// Read back at each call (volatile): the calls through them are indirect.
static void *volatile as_void[4];

static void calls(const char *way, yield_fn y, sleep_fn s, read_fn r,
                  sem_wait_fn w) {
  CALLS_BODY(way, y, s, r, w)
}

static void holder(void *arg) {
  (void)arg;
  calls("cast", (yield_fn)cacs_yield, (sleep_fn)cacs_sleep, (read_fn)cacs_read,
        (sem_wait_fn)cacs_sem_wait);
  // The casts change nothing where the table's type is the default
  // convention's (they compile where it is not, as a gcc unit would).
  calls("table", (yield_fn)table.yield, (sleep_fn)table.sleep,
        (read_fn)table.read, (sem_wait_fn)table.sem_wait);
  calls("void*", (yield_fn)as_void[0], (sleep_fn)as_void[1],
        (read_fn)as_void[2], (sem_wait_fn)as_void[3]);
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0); // what ran before a hang shows
  watchdog(30);
  if (pipe(pipefd) != 0)
    return perror("pipe"), 1;
  fill_waits(&table);
  as_void[0] = (void *)cacs_yield;
  as_void[1] = (void *)cacs_sleep;
  as_void[2] = (void *)cacs_read;
  as_void[3] = (void *)cacs_sem_wait;
  cacs_coro *h = cacs_create(holder, 0, 0);
  cacs_coro *t = cacs_create(trasher, 0, 0);
  cacs_join(h);
  stop = 1;
  cacs_join(t);
  printf("%s\n", failures ? "FAIL" : "PASS");
  return 0;
}
#endif
