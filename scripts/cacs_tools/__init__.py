"""The Python tools of cacs, one package: difftest (differential and random
testing: scripts/difftest), hazards (the ABI hazard matrix:
scripts/hazard-matrix) and docs (the API reference and the docs' examples:
scripts/docs). The executables in scripts/ are thin entry points: they put
this directory's parent on sys.path and call the main of difftest.cli,
hazards.cli or docs."""
