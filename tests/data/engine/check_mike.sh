#!/bin/sh
# A check command for the engine tests (structure run/batch --check): the answer must name
# Mike, and the prompt must reach the check in STRUCTURE_PROMPT. Prints one violation per line.
answer=$(cat)
case "$STRUCTURE_PROMPT" in
  *CASE-*) ;;
  *) echo "(root): STRUCTURE_PROMPT does not hold the prompt"; exit 0 ;;
esac
case "$answer" in
  *'"name":"Mike"'*) ;;
  *) echo "/name: must be the person named in the text" ;;
esac
