#!/bin/sh
# Copies the web app's build (FROM, default /app/apps/web/dist) into the folder Caddy serves it from
# (TO, default /web): docker-compose.yml's `web` service runs it after each new image
# (docs/operations.md#docker-compose).
#
# - assets/: a hashed file already there is kept (its name never changes content) and none is
#   deleted, so a page an older process served still loads its scripts during a rolling upgrade.
#   Source maps are left out: the processes decide about those (deploy/Caddyfile).
# - everything else but the pages and the bundle report (the public pictures and sounds): copied anew.
# Each file is written under a temporary name and renamed into place, so Caddy never sends half a file.
set -eu
from=${1:-/app/apps/web/dist}
to=${2:-/web}
[ -f "$from/index.html" ] || { echo "publish-web: no web build in $from" >&2; exit 1; }
mkdir -p "$to"
to=$(cd "$to" && pwd)
cd "$from"
find . -type f ! -name '*.map' ! -name '*.map.br' ! -name '*.map.gz' ! -name '*.html' ! -name '*.html.br' \
  ! -name '*.html.gz' ! -name 'bundle-report.json*' ! -name '*.publishing' | while IFS= read -r file; do
  case $file in
    ./assets/*) [ -e "$to/$file" ] && continue ;;
  esac
  mkdir -p "$to/$(dirname "$file")"
  cp "$file" "$to/$file.publishing"
  mv -f "$to/$file.publishing" "$to/$file"
done
echo "publish-web: $from copied to $to"
