#!/usr/bin/env bash
# The black-box e2e run of `npm test` (issue 14): the production build started as its own process, exactly as the
# container starts it (`node --max-semi-space-size=8 --max-old-space-size=1024 dist/src/main.js`, the Dockerfile's
# environment; only the address is loopback and the port a free one), or the image itself, on a database of its own,
# then `npm run test:e2e:remote` against it, then a SIGTERM that must stop it cleanly (exit 0). The database, the
# process and the container are removed afterwards, whatever happens.
#   SERVICE_DATABASE  mysql (default: a new database on TEST_DATABASE_URL's server) or sqlite (a file, the image's
#                     default)
#   SERVICE_NODE      the node binary that runs the service (default: the project's, `node` on the PATH); the suite
#                     itself always runs on the project's Node
#   SERVICE_IMAGE     an image to run instead of the build (scripts/test-container.sh): its CMD in a container of
#                     SERVICE_BUILDAH (a buildah command line), chroot isolation on the host's network, its own
#                     environment (on SQLite, its /data); its HEALTHCHECK is run once it is ready
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
container=""
# The first process under process $2 (breadth first) whose program is $1 (a name or a path ending with /$1).
descendant() {
  local queue=("$2") p program
  while [ "${#queue[@]}" -gt 0 ]; do
    p="${queue[0]}"
    queue=("${queue[@]:1}")
    program="$(tr '\0' '\n' < "/proc/$p/cmdline" 2>/dev/null | head -1)"
    if [ "${program##*/}" = "$1" ]; then echo "$p"; return; fi
    queue+=($(cat /proc/"$p"/task/*/children 2>/dev/null))
  done
  echo "no process $1 under $2" >&2
  return 1
}
cleanup() {
  if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  if [ -n "$container" ]; then $SERVICE_BUILDAH rm "$container" > /dev/null || true; fi
  if [ "$service_database" != sqlite ]; then sql "DROP DATABASE IF EXISTS \`$database\`" || true; fi
  rm -rf "$data_dir"
}
trap cleanup EXIT

node scripts/build-if-stale.mjs
if [ "$service_database" != sqlite ]; then sql "CREATE DATABASE \`$database\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci"; fi
service_env=(TRACKER_ADMIN_API_KEY="$admin_key" TRACKER_ADMIN_PASSWORD="$admin_password" LOG_LEVEL=warn HOST=127.0.0.1 PORT="$port")
if [ -n "${SERVICE_IMAGE:-}" ]; then
  # The image's own CMD and environment; only the address, the port, the credentials and a MariaDB URL are given.
  if [ "$service_database" != sqlite ]; then service_env+=(DATABASE_URL="$database_url"); fi
  container="$($SERVICE_BUILDAH from --pull=never --quiet "$SERVICE_IMAGE")"
  # One argument a line of the image's configuration: `image_words Cmd` (the CMD), `image_words Healthcheck` (the
  # HEALTHCHECK's command, without the CMD that starts it).
  image_words() {
    $SERVICE_BUILDAH inspect --type image "$SERVICE_IMAGE" | node -e "
      const config = JSON.parse(require('fs').readFileSync(0, 'utf8')).Docker.config;
      const words = process.argv[1] === 'Cmd' ? config.Cmd : config.Healthcheck?.Test?.[0] === 'CMD' ? config.Healthcheck.Test.slice(1) : [];
      for (const word of words) console.log(word);" "$1"
  }
  mapfile -t command < <(image_words Cmd)
  echo "the service: the image $SERVICE_IMAGE ($service_database): ${command[*]}"
  $SERVICE_BUILDAH run --isolation=chroot "${service_env[@]/#/--env=}" "$container" -- "${command[@]}" > "$data_dir/service.log" 2>&1 &
else
  echo "the service: Node $("$service_node" --version), $service_database"
  env NODE_ENV=production TZ=UTC DATABASE_URL="$database_url" TRACKER_DATA_DIR="$data_dir" "${service_env[@]}" \
    MALLOC_ARENA_MAX=2 "$service_node" --max-semi-space-size=8 --max-old-space-size=1024 dist/src/main.js > "$data_dir/service.log" 2>&1 &
fi
pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 120); do
  if node -e "fetch(process.argv[1] + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" "$base"; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then echo "the service stopped during start-up:" >&2; cat "$data_dir/service.log" >&2; exit 1; fi
  sleep 0.5
done
if [ -n "${SERVICE_IMAGE:-}" ]; then
  # The HEALTHCHECK as the container engine would run it, inside the container.
  mapfile -t health < <(image_words Healthcheck)
  [ "${#health[@]}" -gt 0 ] || { echo "the image has no HEALTHCHECK CMD" >&2; exit 1; }
  $SERVICE_BUILDAH run --isolation=chroot "${service_env[@]/#/--env=}" "$container" -- "${health[@]}" || { echo "the image's HEALTHCHECK failed" >&2; exit 1; }
fi
suite=0
E2E_BASE_URL="$base" E2E_ADMIN_API_KEY="$admin_key" E2E_ADMIN_PASSWORD="$admin_password" npm run -s test:e2e:remote || suite=$?
# A graceful stop: SIGTERM to the service's process, which exits 0 within its grace period. In the container it goes
# to the node process, as a container engine delivers it: buildah's chroot runner does not pass a SIGTERM on (it
# kills the command), and exits with the command's exit code.
service_pid="$pid"
if [ -n "${SERVICE_IMAGE:-}" ]; then service_pid="$(descendant node "$pid")"; fi
kill -TERM "$service_pid"
stopped=0
wait "$pid" || stopped=$?
pid=""
if [ "$stopped" != 0 ]; then echo "the service did not stop cleanly on SIGTERM (exit $stopped):" >&2; tail -20 "$data_dir/service.log" >&2; exit 1; fi
echo "the service stopped cleanly on SIGTERM"
exit "$suite"
