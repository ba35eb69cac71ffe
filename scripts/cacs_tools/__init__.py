"""The Python tools of cacs, one package: difftest (differential and random
testing: scripts/difftest) and hazards (the ABI hazard matrix:
scripts/hazard-matrix). The entry points in scripts/ put this directory's
parent on sys.path and import from here."""
