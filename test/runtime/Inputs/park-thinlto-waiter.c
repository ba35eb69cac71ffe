// park-thinlto-inline.c's other unit: small functions that wait, for the
// ThinLTO backend to import and inline into that unit's frames.

#include "cacs/coro.h"
#include "cacs/io.h"

extern int waiter_fd;

void waiter(int k) {
  char b[8];
  if (k & 1)
    cacs_sleep(0);
  else if (k & 2)
    cacs_read(waiter_fd, b, 1, 0); // EAGAIN: tries, does not wait
  else
    cacs_park_timeout(10);
}
