#!/usr/bin/env bash
# kill_when_ready.sh SIGNAL REPORT PROGRAM [ARGS...]
# Runs PROGRAM in the background with its stderr (the report) in REPORT,
# waits for the line "ready" on its stdout, sends it SIGNAL with kill(1) and
# prints its other output and "status N", the status the shell saw for it
# (128 + the signal's number when the signal ended it). The program starts
# with the default action for SIGHUP, SIGINT and SIGTERM. No sleep: the only
# wait is for the program's own line, so a loaded or pinned machine changes
# nothing but the time it takes.
set -eu
signal=$1 report=$2
shift 2
fifo=$(mktemp -u "${TMPDIR:-/tmp}/kill_when_ready.XXXXXX")
mkfifo "$fifo"
trap 'rm -f "$fifo"' EXIT
# A background job of a non-interactive shell starts with SIGINT ignored,
# and lit may start us so.
env --default-signal=HUP,INT,TERM "$@" >"$fifo" 2>"$report" &
pid=$!
exec 3<"$fifo"
while :; do
  read -r line <&3 || { echo "the program ended before it was ready"; exit 1; }
  [ "$line" = ready ] && break
  echo "$line"
done
kill -s "$signal" "$pid"
set +e
wait "$pid"
status=$?
set -e
cat <&3
echo "status $status"
