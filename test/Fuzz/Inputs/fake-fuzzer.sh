#!/bin/sh
# Stands in for a libFuzzer target in interrupted.test: prints what
# libFuzzer prints and exits as it does, by $FAKE_FUZZER_MODE.
case "$FAKE_FUZZER_MODE" in
interrupted)
  echo "==1== libFuzzer: run interrupted; exiting"
  echo "stat::number_of_executed_units: 1234"
  exit 72 ;;
silent-death)
  echo "stat::number_of_executed_units: 5"
  exit 72 ;;
esac
exit 0
