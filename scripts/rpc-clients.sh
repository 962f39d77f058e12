#!/usr/bin/env bash
# The RPC clients test/e2e/rpc-clients.e2e-spec.ts drives against /xmlrpc.cgi (issue 45, docs/rpc.md):
# python-bugzilla 3.2 (Debian's python3-bugzilla, the library, and bugzilla-cli, its `bugzilla` command) and pybugz 0.13
# (Debian's `bugz`). Installs them with apt-get when one is missing (as root, or through sudo); does nothing
# when both are there. A fresh machine (CI) gets them at the first run; the test runs this script itself.
set -euo pipefail

have() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

missing=()
for package in python3-bugzilla bugzilla-cli bugz; do
  have "$package" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null; then
  echo "rpc-clients.sh: ${missing[*]} missing and no apt-get here: install python-bugzilla 3.2 and pybugz 0.13 by hand" >&2
  exit 1
fi
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo -n)
echo "rpc-clients.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# The package lists may be absent (a fresh container) or stale: fetched once, then the install tried again.
"${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}" >&2 ||
  { "${as_root[@]}" apt-get update >&2 && "${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}" >&2; }
