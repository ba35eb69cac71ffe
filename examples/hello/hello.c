// Two coroutines taking turns: each cacs_yield switches to the other.
//   build/bin/clang -O2 -fauto-preserve-none examples/hello/hello.c -lcacs_io -lcacs -o hello && ./hello
#include <cacs/coro.h>
#include <stdio.h>

static void count(void *name) {
  for (int i = 1; i <= 3; ++i) {
    printf("%s %d\n", (const char *)name, i);
    cacs_yield(); // to the next ready coroutine: the other one, then main
  }
}

int main(void) {
  cacs_coro *ping = cacs_create(count, "ping", 0); // 0: the default stack
  cacs_coro *pong = cacs_create(count, "pong", 0);
  if (!ping || !pong)
    return perror("cacs_create"), 1;
  cacs_join(ping); // main yields until each has finished
  cacs_join(pong);
  return 0;
}
