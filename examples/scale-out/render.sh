#!/usr/bin/env bash
# Writes DIR/nginx.conf from nginx.conf.template beside this script: nginx listening on
# LISTEN, balancing by session over the petstore-sandbox servers at REPLICA...
#   bash render.sh DIR LISTEN REPLICA...
#   bash render.sh /tmp/sandbox-lb 127.0.0.1:8080 127.0.0.1:4011 127.0.0.1:4012 127.0.0.1:4013
#   nginx -p /tmp/sandbox-lb -c nginx.conf -e stderr -g 'daemon off;'
set -euo pipefail
if [ "$#" -lt 3 ]; then
  echo "usage: bash $0 DIR LISTEN REPLICA... (e.g. /tmp/sandbox-lb 127.0.0.1:8080 127.0.0.1:4011 127.0.0.1:4012)" >&2
  exit 2
fi
dir=$1 listen=$2
shift 2
address='^[][A-Za-z0-9.:_-]+$'
for replica in "$@"; do
  if ! [[ $replica =~ $address ]]; then
    echo "render.sh: \"$replica\" is not host:port" >&2
    exit 2
  fi
done
if ! [[ $listen =~ $address ]]; then
  echo "render.sh: \"$listen\" is not a port or address:port" >&2
  exit 2
fi
template=$(<"$(dirname "$0")/nginx.conf.template")
servers=$(printf '        server %s;\n' "$@")
config=${template//@REPLICAS@/$servers}
config=${config//@LISTEN@/$listen}
mkdir -p "$dir"
printf '%s\n' "$config" >"$dir/nginx.conf"
echo "$dir/nginx.conf"
