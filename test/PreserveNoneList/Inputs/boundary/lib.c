// A library built without the list (stock clang, or gcc): its functions
// take their arguments in the C registers.
long lib_scale(long a, long b, long c) { return a * 100 + b * 10 + c; }
