// The LD_PRELOAD object of boundary-preload.c: it replaces twice.
long twice(long a) { return 1000 + a; }
