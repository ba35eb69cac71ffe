// Declares lib_scale, which a library built without the list defines.
#include <stdio.h>
long lib_scale(long a, long b, long c);
static long steps;
void lib_step(void) { steps++; } // the function the entry is meant for
int main(void) {
  lib_step();
  printf("lib_scale %ld, steps %ld\n", lib_scale(1, 2, 3), steps);
  return 0;
}
