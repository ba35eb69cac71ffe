"""scripts/hazard-matrix: generated programs over ABI hazards x argument
shapes x how preserve_none comes x -O x target, against stock clang -O0."""
