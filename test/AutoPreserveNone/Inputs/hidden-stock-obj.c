// Built by stock clang into an ordinary object (not bitcode) and linked
// into the same executable: it calls the program's hidden by_name with the
// C convention, by name.
__attribute__((visibility("hidden"))) long by_name(long, long, long, long,
                                                    long, long, long, long,
                                                    long, long, long);
long obj_call(long x) {
  return by_name(x, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11) + 1;
}
