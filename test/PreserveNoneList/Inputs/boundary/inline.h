// An inline function (linkonce_odr, in a comdat) that two units use, one
// built with the list and one without.
__attribute__((noinline)) inline long tw(long a, long b, long c) {
  return a * 100 + b * 10 + c;
}
long with_list(long);
long without_list(long);
extern long (*addr_with)(long, long, long);
extern long (*addr_without)(long, long, long);
