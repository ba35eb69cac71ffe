// Calls kf through an old-style (unprototyped) declaration.
#include <stdio.h>
long kf();
int main(void) {
  printf("kf %ld %ld\n", kf(5L), kf(-7L));
  return 0;
}
