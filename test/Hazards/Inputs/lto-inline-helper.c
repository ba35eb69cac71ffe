// The other unit of lto-inline-dynamic-stack.c: an always_inline helper with
// a variable-length array and an over-aligned local. Inlined at the full-LTO
// link into a function APN infected in its own unit, it gives that function
// a realigned frame with a dynamic alloca.
#include <string.h>
__attribute__((always_inline)) inline long helper(long n) {
  _Alignas(64) char aligned[64];
  char vla[n];
  memset(vla, 1, (size_t)n);
  memset(aligned, 2, sizeof aligned);
  long s = 0;
  for (long i = 0; i < n; ++i)
    s += vla[i] + aligned[i % 64];
  return s;
}
// The external definition (C99: an extern declaration of an inline function).
extern long helper(long n);
