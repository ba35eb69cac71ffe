// A shared library that exports a listed function, lfoo (12 integer
// arguments: the 11th in r11 on x86-64, the last in rax), lbar that calls
// it, and lget that returns its address.
long lcount;
long lfoo(long a, long b, long c, long d, long e, long f, long g, long h,
          long i, long j, long k, long l) {
  lcount++;
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i +
         10 * j + 11 * k + 12 * l;
}
long lbar(long x) {
  return lfoo(x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7, x + 8, x + 9,
              x + 10, x + 11) * 3 + lcount;
}
typedef long lfoo_fn(long, long, long, long, long, long, long, long, long,
                     long, long, long);
lfoo_fn *lget(void) { return lfoo; }
