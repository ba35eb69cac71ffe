// The wrapped function, built with the list (fun:scale12).
long scale12(long a, long b, long c, long d, long e, long f, long g, long h,
             long i, long j, long k, long l) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i +
         10 * j + 11 * k + 12 * l;
}
