// What the per-target tests compile: a function a list names, one with many
// arguments that calls a preserve_none function (what APN starts from), and
// the hand-written attribute, which stock clang ignores with a warning where
// the target has no preserve_none.

__attribute__((preserve_none)) long hand(long a, long b);

int snprintf(char *, __SIZE_TYPE__, const char *, ...);

// A frame and a call: the i386 backend crashed on it under preserve_none.
long listed(long a, long b, long c) {
  char buf[64];
  snprintf(buf, sizeof buf, "%ld", a);
  return a * b + c + buf[0];
}

long many(long a1, long a2, long a3, long a4, long a5, long a6, long a7,
          long a8, long a9, long a10, long a11, long a12, long a13, long a14) {
  return hand(a1 + a2 + a3 + a4 + a5 + a6 + a7, a8 + a9 + a10 + a11 + a12) +
         listed(a13, a14, 1);
}

__attribute__((preserve_none)) long hand(long a, long b) {
  return a - b + listed(a, b, 2);
}

static long inner(long a1, long a2, long a3, long a4, long a5, long a6,
                  long a7, long a8, long a9, long a10, long a11, long a12,
                  long a13) {
  return many(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a1) +
         hand(a2, a3);
}

long entry(long x) {
  return inner(x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7, x + 8,
               x + 9, x + 10, x + 11, x + 12);
}
