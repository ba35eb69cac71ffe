// Effects by the ten, for the tests that need many (effect.c, effect-fast.c):
// CACS_EFFECTS_10(p) defines p0 .. p9 (payload and result int);
// CACS_EFFECTS_10_ADDRS(p) lists their descriptors' addresses.

#ifndef CACS_TEST_EFFECT_MANY_H
#define CACS_TEST_EFFECT_MANY_H

#include "cacs/effect.h"

#define CACS_EFFECTS_10(p)                                                     \
  CACS_EFFECT(p##0, int, int);                                                 \
  CACS_EFFECT(p##1, int, int);                                                 \
  CACS_EFFECT(p##2, int, int);                                                 \
  CACS_EFFECT(p##3, int, int);                                                 \
  CACS_EFFECT(p##4, int, int);                                                 \
  CACS_EFFECT(p##5, int, int);                                                 \
  CACS_EFFECT(p##6, int, int);                                                 \
  CACS_EFFECT(p##7, int, int);                                                 \
  CACS_EFFECT(p##8, int, int);                                                 \
  CACS_EFFECT(p##9, int, int)
#define CACS_EFFECTS_10_ADDRS(p)                                               \
  &cacs_effect_##p##0, &cacs_effect_##p##1, &cacs_effect_##p##2,               \
      &cacs_effect_##p##3, &cacs_effect_##p##4, &cacs_effect_##p##5,           \
      &cacs_effect_##p##6, &cacs_effect_##p##7, &cacs_effect_##p##8,           \
      &cacs_effect_##p##9

#endif // CACS_TEST_EFFECT_MANY_H
