#!/bin/sh
# Stands in for a libFuzzer target in test/Fuzz's tests of scripts/fuzz:
# prints what libFuzzer prints and exits as it does, by $FAKE_FUZZER_MODE.
prefix=
unit=
for a in "$@"; do
  case "$a" in
  -artifact_prefix=*) prefix=${a#-artifact_prefix=} ;;
  -*) ;;
  *) [ -f "$a" ] && unit=$a ;;
  esac
done

# A timeout: the input written, the report, libFuzzer's exit code for it.
timeout() {
  echo x > "${prefix}timeout-1234"
  echo "==1== ERROR: libFuzzer: timeout after 11 seconds"
  echo "artifact_prefix='$prefix'; Test unit written to ${prefix}timeout-1234"
  echo "SUMMARY: libFuzzer: timeout"
  echo "stat::number_of_executed_units: 100"
  exit 70
}

case "$FAKE_FUZZER_MODE" in
interrupted)
  echo "==1== libFuzzer: run interrupted; exiting"
  echo "stat::number_of_executed_units: 1234"
  exit 72 ;;
silent-death)
  echo "stat::number_of_executed_units: 5"
  exit 72 ;;
starved)
  # The input runs in time when run again alone; the first run of the
  # target times out ($FAKE_FUZZER_STATE says it did), the next does not.
  [ -n "$unit" ] && exit 0
  if [ ! -e "$FAKE_FUZZER_STATE" ]; then
    : > "$FAKE_FUZZER_STATE"
    timeout
  fi
  echo "stat::number_of_executed_units: 200"
  exit 0 ;;
timeout)
  # The input times out again when run alone.
  [ -n "$unit" ] && exit 70
  timeout ;;
esac
exit 0
