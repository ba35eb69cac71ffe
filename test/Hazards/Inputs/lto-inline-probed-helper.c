// The other unit of lto-inline-stack-probe.c, compiled with
// -fstack-clash-protection: an always_inline helper with a frame large
// enough for a probe loop. Inlining it gives the caller its frame and its
// "probe-stack" attribute.
__attribute__((always_inline)) inline long helper(long n) {
  volatile char big[100000];
  big[n] = (char)n;
  return big[n];
}
// The external definition (C99: an extern declaration of an inline function).
extern long helper(long n);
