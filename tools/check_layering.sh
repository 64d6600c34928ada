#!/usr/bin/env bash
# Fails when a folder other than actors/ includes a CAF header, or when a pure folder includes
# curl (providers/curl_* is the one allowed I/O piece below actors/), or when anything but the
# shared store's client includes hiredis.
set -u
root="${1:-.}"
cd "$root" || exit 2
bad=$(grep -rnE '#include *[<"]caf/' base config registry providers pipeline apps 2>/dev/null)
if [ -n "$bad" ]; then
  echo "CAF included outside actors/:"; echo "$bad"; exit 1
fi
bad=$(grep -rnE '#include *[<"]curl/' base config registry pipeline 2>/dev/null)
if [ -n "$bad" ]; then
  echo "curl included in a pure folder:"; echo "$bad"; exit 1
fi
bad=$(grep -rnE '#include *[<"]hiredis/' base config registry providers pipeline actors apps 2>/dev/null |
  grep -v '^registry/redis_client.cc:')
if [ -n "$bad" ]; then
  echo "hiredis included outside registry/redis_client.cc:"; echo "$bad"; exit 1
fi
echo "layering ok: CAF only in actors/, curl only in providers/ transport, hiredis only in the Redis client"
