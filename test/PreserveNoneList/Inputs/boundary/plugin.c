// A plugin built with the list; its host looks its functions up with dlsym.
long plug12(long a, long b, long c, long d, long e, long f, long g, long h,
            long i, long j, long k, long l) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i +
         10 * j + 11 * k + 12 * l;
}
long plug3(long a, long b, long c) { return a * 100 + b * 10 + c; }
