// Defines kf with a prototype.
long kf(long x) { return x * 3 + 1; }
