// The library of lazy-plt.c: a function with 24 integer arguments, more
// than the registers the lazy PLT resolver leaves alone on either target.
#ifdef ATTR
#define PN __attribute__((preserve_none))
#else
#define PN
#endif
PN long weighted(long a1, long a2, long a3, long a4, long a5, long a6, long a7,
                 long a8, long a9, long a10, long a11, long a12, long a13,
                 long a14, long a15, long a16, long a17, long a18, long a19,
                 long a20, long a21, long a22, long a23, long a24) {
  return a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 + 8 * a8 +
         9 * a9 + 10 * a10 + 11 * a11 + 12 * a12 + 13 * a13 + 14 * a14 +
         15 * a15 + 16 * a16 + 17 * a17 + 18 * a18 + 19 * a19 + 20 * a20 +
         21 * a21 + 22 * a22 + 23 * a23 + 24 * a24;
}
