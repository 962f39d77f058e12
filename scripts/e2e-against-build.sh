#!/usr/bin/env bash
# The black-box e2e run of `npm test` (issue 14): the production build started as its own process, exactly as the
# container starts it (`node --max-semi-space-size=8 --max-old-space-size=1024 dist/src/main.js`, the Dockerfile's environment; only the address is loopback and the
# port a free one), on a database of its own, then `npm run test:e2e:remote` against it. The database and the
# process are removed afterwards, whatever happens.
#   SERVICE_DATABASE  mysql (default: a new database on TEST_DATABASE_URL's server) or sqlite (a file, the image's
#                     default)
#   SERVICE_NODE      the node binary that runs the service (default: the project's, `node` on the PATH); the suite
#                     itself always runs on the project's Node
set -euo pipefail
cd "$(dirname "$0")/.."
server="${TEST_DATABASE_URL:-mysql://root@127.0.0.1:3306}"
service_database="${SERVICE_DATABASE:-mysql}"
service_node="${SERVICE_NODE:-node}"
database="tracker_e2e_remote_$$"
data_dir="$(mktemp -d)"
if [ "$service_database" = sqlite ]; then database_url="sqlite:$data_dir/tracker.sqlite"; else database_url="${server%/}/$database"; fi
admin_key="e2e$(node -e "process.stdout.write(require('node:crypto').randomBytes(20).toString('hex'))")"
admin_password="e2e-$(node -e "process.stdout.write(require('node:crypto').randomBytes(9).toString('base64url'))")"
port="$(node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { process.stdout.write(String(s.address().port)); s.close(); })")"

sql() { node -e "import('mysql2/promise').then(async (m) => { const c = await m.default.createConnection(process.argv[1]); await c.query(process.argv[2]); await c.end(); })" "$server" "$1"; }
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  if [ "$service_database" != sqlite ]; then sql "DROP DATABASE IF EXISTS \`$database\`" || true; fi
  rm -rf "$data_dir"
}
trap cleanup EXIT

node scripts/build-if-stale.mjs
if [ "$service_database" != sqlite ]; then sql "CREATE DATABASE \`$database\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci"; fi
echo "the service: Node $("$service_node" --version), $service_database"
env NODE_ENV=production TZ=UTC HOST=127.0.0.1 PORT="$port" DATABASE_URL="$database_url" TRACKER_DATA_DIR="$data_dir" \
  TRACKER_ADMIN_API_KEY="$admin_key" TRACKER_ADMIN_PASSWORD="$admin_password" LOG_LEVEL=warn \
  "$service_node" --max-semi-space-size=8 --max-old-space-size=1024 dist/src/main.js > "$data_dir/service.log" 2>&1 &
pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 120); do
  if node -e "fetch(process.argv[1] + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" "$base"; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then echo "the service stopped during start-up:" >&2; cat "$data_dir/service.log" >&2; exit 1; fi
  sleep 0.5
done
E2E_BASE_URL="$base" E2E_ADMIN_API_KEY="$admin_key" E2E_ADMIN_PASSWORD="$admin_password" npm run -s test:e2e:remote
