// The function of lazy-plt-lib.c as lazy-plt-address.c and its other unit
// see it.
#ifdef ATTR
#define PN __attribute__((preserve_none))
#else
#define PN
#endif
typedef PN long weighted_fn(long, long, long, long, long, long, long, long,
                            long, long, long, long, long, long, long, long,
                            long, long, long, long, long, long, long, long);
weighted_fn weighted;
