// Built by stock clang or gcc: calls the cacs-built functions, and is
// called back by them.
unsigned long served_by_cacs(unsigned long n);
unsigned long plain_callback(unsigned long n) { return n * 5 + 1; }
unsigned long plain_loop(unsigned long rounds) {
  unsigned long acc = 0;
  for (unsigned long i = 0; i < rounds; ++i)
    acc = acc * 31 + served_by_cacs(i);
  return acc;
}
