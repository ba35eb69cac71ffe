// The other unit of thinlto-promoted.c: main calls 'exported', which ThinLTO
// imports into this unit and inlines.
#include <stdio.h>

long exported(long x);
volatile long seed = 5;

int main(void) {
  printf("%ld %ld\n", exported(seed), exported(seed + 1));
  return 0;
}
