#include "inline.h"
long (*addr_with)(long, long, long) = tw;
long with_list(long x) { return tw(x, 2, 3); }
