#!/usr/bin/env bash
# The whole test suite: install, unit tests, then the end-to-end suite on SQLite and on MariaDB/MySQL (in-process,
# with the speed mechanisms on and then off, and black-box against the production build), on the project's Node 24
# (the `node` dev dependency), the e2e suite on SQLite once more on Node 22, the other supported LTS line, and last
# the container image built from the Dockerfile with the e2e suite black-box against it on both databases
# (scripts/test-container.sh).
# TEST_DATABASE_URL names the MariaDB/MySQL server (default mysql://root@127.0.0.1:3306); each e2e file creates
# and drops a database of its own there. Without a reachable server the MariaDB run fails under CI=true and is
# skipped (loudly) otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
export TZ=UTC
# Every bug an update keeps as it left it is compared with the database's, in every run below (app-config.ts).
export TRACKER_CACHE_BUGS_CHECK=1

if [ "${CI:-}" = "true" ] || [ ! -d node_modules ]; then
  # Exactly the locked versions (npm 11 takes the lockfile as it is).
  npm ci --no-audit --no-fund
fi
# The runtime is the `node` dev dependency (Node 24 LTS), whatever Node the machine has: npm puts
# node_modules/.bin first on the PATH of its scripts, and this puts it there when the script is run directly.
export PATH="$PWD/node_modules/.bin:$PATH"
hash -r
echo "== on Node $(node --version)"
# The RPC clients the e2e suite drives against /xmlrpc.cgi (python-bugzilla 3.2, pybugz), from Debian when missing.
bash scripts/rpc-clients.sh

jest() { node --experimental-vm-modules node_modules/jest/bin/jest.js "$@"; }

# Static checks: ESLint, the module boundaries (.dependency-cruiser.cjs) and "no SQL outside repositories"
# (scripts/check-sql.mjs). Any finding fails the suite.
echo "== static checks: lint, dependency rules, SQL outside repositories"
npm run --silent lint
npm run --silent check:deps
npm run --silent check:sql

echo "== unit tests"
jest --selectProjects unit

echo "== e2e tests on SQLite"
TEST_DIALECT=sqlite jest --selectProjects e2e

# The other supported LTS line: the production build on Node 22 and the embedded database (the native SQLite
# binding is what depends on the runtime most), the e2e suite black-box against it. Not in-process: Jest loads ES
# modules through require() only on Node >= 24.9 (the OpenAPI page's static files need it); the service on Node 22
# does so natively. See docs/decisions.md, "Runtime (issue 14)".
node22="$(bash scripts/node-runtime.sh 22.23.3)"
echo "== e2e suite against the production build on Node $("$node22" --version) and SQLite"
SERVICE_NODE="$node22" SERVICE_DATABASE=sqlite bash scripts/e2e-against-build.sh

export TEST_DATABASE_URL="${TEST_DATABASE_URL:-mysql://root@127.0.0.1:3306}"
if node -e "import('mysql2/promise').then(m => m.default.createConnection(process.env.TEST_DATABASE_URL)).then(c => c.end()).catch(() => process.exit(1))"; then
  echo "== e2e tests on MariaDB/MySQL ($TEST_DATABASE_URL)"
  TEST_DIALECT=mysql jest --selectProjects e2e
  # Once more with every speed mechanism off (TRACKER_FAST_PATHS=off, AppConfig.fastPaths): the plain NestJS +
  # TypeORM path must stay true, answering exactly as the fast one. Tests whose subject is a mechanism (statement
  # counts, round trips, kept answers …) are not registered there (test/support/conditions.ts).
  echo "== e2e tests on MariaDB/MySQL with TRACKER_FAST_PATHS=off"
  TRACKER_FAST_PATHS=off TEST_DIALECT=mysql jest --selectProjects e2e
  # Black-box: the production build as the container starts it, on a database of its own, and the e2e suite
  # against it over HTTP only (npm run test:e2e:remote), with the report of documented routes it did not reach.
  echo "== e2e suite against the production build on Node $(node --version) and MariaDB/MySQL (npm run test:e2e:remote)"
  bash scripts/e2e-against-build.sh
elif [ "${CI:-}" = "true" ]; then
  echo "MariaDB/MySQL at $TEST_DATABASE_URL is not reachable: the e2e suite must run on it under CI" >&2
  exit 1
else
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
  echo "!! MariaDB/MySQL at $TEST_DATABASE_URL is not reachable: the MariaDB e2e run was SKIPPED"
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
fi

# Read replicas (issue 40): the production build as three instances on a MariaDB primary and GTID replica the test
# starts itself (scripts/replica-cluster.sh: `mariadbd` processes of their own, not the server above), what one
# instance writes read at once on the others, with the replica late, stopped, killed, and the primary restarted.
# Without the MariaDB server programs it fails under CI=true and is skipped (loudly) otherwise.
mariadb_programs=1
for program in mariadbd mariadb-install-db mariadb; do
  PATH="$PATH:/usr/sbin:/usr/local/sbin" command -v "$program" > /dev/null || mariadb_programs=0
done
if [ "$mariadb_programs" = 1 ]; then
  echo "== read replicas: three instances on a MariaDB primary and replica of their own (test/replica)"
  jest --selectProjects replica
elif [ "${CI:-}" = "true" ]; then
  echo "mariadbd, mariadb-install-db and mariadb are needed for the read replica test (test/replica) under CI" >&2
  exit 1
else
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
  echo "!! mariadbd, mariadb-install-db or mariadb is missing: the read replica test was SKIPPED"
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
fi

# The image users build, built from the Dockerfile here (buildah), and the e2e suite against the service in it, on
# SQLite and on MariaDB/MySQL. Without root or buildah it fails under CI=true and is skipped (loudly) otherwise.
echo "== the container image: built from the Dockerfile, the e2e suite against it (npm run test:container)"
bash scripts/test-container.sh
