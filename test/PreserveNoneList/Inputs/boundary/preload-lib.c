// The library of boundary-preload.c: built with the list.
long twice(long a) { return 2 * a; }
