// The program of boundary-preload.c: calls twice directly and through a pointer.
#include <stdio.h>
long twice(long a);
int main(void) { long (*p)(long) = twice; printf("direct %ld pointer %ld\n", twice(21), p(21)); return 0; }
