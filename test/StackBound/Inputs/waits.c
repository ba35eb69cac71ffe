#include "cacs/coro.h"
#include "cacs/io.h"
#include "cacs/sysstack.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static volatile int sink;

// A server's shape: parse, handle, wait three calls deep; the C library
// moved to the system stack.
__attribute__((noinline)) static int wait_for(int fd) {
  volatile char buf[64];
  buf[0] = 0;
  cacs_sleep(10);
  cacs_yield();
  return (int)cacs_read(fd, (char *)buf, 1, 1000) + buf[0];
}
__attribute__((noinline)) static int handle(int fd) {
  volatile char buf[100];
  buf[fd & 63] = 1;
  return wait_for(fd) + buf[1];
}
__attribute__((noinline)) static int parse(int fd) {
  volatile char buf[200];
  buf[fd & 127] = 2;
  return handle(fd) + buf[3];
}
static void waits(void *p) { sink = parse((int)(long)p); }

// An entry that parks right away: its deepest point is the park's budget,
// below a frame that calls, which keeps nothing in its red zone (x86-64):
// its bound is its frame and the budget, without a leaf's 128 bytes.
static void parks(void *p) {
  (void)p;
  cacs_park();
}

// The C library on the coroutine's stack: no bound.
static void prints(void *p) { printf("%d\n", (int)(long)p); }

// The same call on the system stack: its own entry (its address is taken)
// has no bound, the coroutine that moves it there has one.
static void format_reply(void *p) { printf("%d\n", *(int *)p); }
static void on_system(void *p) {
  int x = (int)(long)p;
  CACS_ON_SYSTEM_STACK(format_reply, &x);
}

struct bound {
  const void *entry;
  uint64_t bytes;
};
extern const struct bound __start_cacs_stack_bounds[] __attribute__((weak)),
    __stop_cacs_stack_bounds[] __attribute__((weak));

int main(int argc, char **argv) {
  (void)argv;
  if (argc > 100) {
    cacs_create(waits, NULL, 0);
    cacs_create(prints, NULL, 0);
    cacs_create(on_system, NULL, 0);
    cacs_create(parks, NULL, 0);
  }
  // The bound of the entry that waits holds the switches' budget, and
  // that of the one that moves its call, the system stack's.
  for (const struct bound *b = __start_cacs_stack_bounds;
       b && b < __stop_cacs_stack_bounds; ++b) {
    if (b->entry == (const void *)waits)
      printf("waits: %s\n", b->bytes >= CACS_CONTRACT_WAIT_STACK_BUDGET + 300
                                ? "bound holds the switch budget"
                                : "bound too small");
    if (b->entry == (const void *)parks) {
      int ok = b->bytes >= CACS_CONTRACT_PARK_STACK_BUDGET;
#if defined(__x86_64__) // the frame that calls is some 8 to 72 bytes
      ok = ok && b->bytes < CACS_CONTRACT_PARK_STACK_BUDGET + 128;
#endif
      printf("parks: %s\n", ok ? "bound is its frame and the park's budget"
                               : "bound wrong");
    }
    if (b->entry == (const void *)on_system)
      printf("on_system: %s\n", b->bytes >= CACS_CONTRACT_SYSTEM_STACK_BUDGET
                                    ? "bound holds the system stack's budget"
                                    : "bound too small");
  }
  return 0;
}
