int f(int *p) {
  int *q = 0;
  if (p)
    return *p;
  return *q; // null dereference: scan-build must report it
}
