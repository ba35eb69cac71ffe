// The other unit of alias-comdat.c: takes the address of the listed
// function too, so it has its own copy of the C-entry thunk's comdat, and
// calls the alias, with the C convention (the alias is not listed).
long listed(long x);
long alias_of_listed(long x);
long (*volatile other_ptr)(long) = listed;
// x + 5, not x: a callee reading the wrong register would find x there.
long call_alias(long x) { return alias_of_listed(x + 5) * 10 + other_ptr(x); }
