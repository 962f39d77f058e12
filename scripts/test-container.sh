#!/usr/bin/env bash
# `npm run test:container`: the image users build (the Dockerfile, unchanged), built and run here, and the e2e suite
# black-box against the service in it, on SQLite and on the test MariaDB/MySQL (TEST_DATABASE_URL).
# No Docker daemon and no registry but npm's and Debian's are reachable, so: buildah (as root, vfs storage, chroot
# isolation, the host's network) builds and runs the image, and the base the Dockerfile asks for
# (node:<version>-bookworm-slim) is made locally the same shape: Debian bookworm (debootstrap --variant=minbase), the
# pinned Node binary and its headers (the `node` dev dependency), npm (from the npm registry), a `node` user with
# uid 1000, and this machine's CA bundle (NODE_EXTRA_CA_CERTS: the registry's TLS is signed by a CA only this machine
# trusts). The base and the storage live outside the repository, in TRACKER_IMAGE_CACHE (/var/tmp/tracker-image-base),
# keyed by the Node version, so a second run only builds the image. The containers and the image it builds are
# removed afterwards, whatever happens.
# Without root, or without buildah/debootstrap and no way to install them, it says so, fails under CI=true and is
# skipped (loudly) otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

skip() {
  if [ "${CI:-}" = "true" ]; then echo "test:container: $1 (under CI=true the container test must run)" >&2; exit 1; fi
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
  echo "!! test:container: $1: the container build and its e2e runs were SKIPPED"
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
  exit 0
}

[ "$(id -u)" = 0 ] || skip "buildah's chroot isolation and debootstrap need root"
if ! command -v buildah > /dev/null || ! command -v debootstrap > /dev/null; then
  command -v apt-get > /dev/null || skip "buildah and debootstrap are missing and there is no apt-get to install them"
  echo "== installing buildah and debootstrap from Debian"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends buildah debootstrap; } > /dev/null \
    || skip "buildah and debootstrap could not be installed (apt-get failed)"
fi

node_version="$(node -p "require('./node_modules/node/package.json').version")"
node_home="node_modules/node/node_modules/node-linux-$(node -p process.arch)"
[ -x "$node_home/bin/node" ] || { echo "test:container: the Node binary of the node dev dependency is missing ($node_home)" >&2; exit 1; }
cache="${TRACKER_IMAGE_CACHE:-/var/tmp/tracker-image-base}"
# The name the Dockerfile's FROM asks for by default.
base_image="docker.io/library/node:$node_version-bookworm-slim"
image="localhost/tracker-container-test:$$"
bah() { buildah --root "$cache/storage" --runroot "$cache/run" --storage-driver=vfs "$@"; }

make_base_tar() {
  local rootfs npm_version
  rootfs="$(mktemp -d "$cache/rootfs.XXXXXX")"
  npm_version="$(npm --version)"
  echo "== making the base: Debian bookworm (debootstrap minbase), Node $node_version, npm $npm_version"
  debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian > "$cache/debootstrap.log" 2>&1 \
    || { tail -20 "$cache/debootstrap.log" >&2; rm -rf "$rootfs"; exit 1; }
  install -D -m 0755 "$node_home/bin/node" "$rootfs/usr/local/bin/node"
  mkdir -p "$rootfs/usr/local/include" "$rootfs/usr/local/lib/node_modules/npm" "$rootfs/usr/local/etc" "$rootfs/etc/ssl/certs"
  cp -r "$node_home/include/node" "$rootfs/usr/local/include/node"
  (cd "$cache" && npm pack --silent "npm@$npm_version" > /dev/null)
  tar -xzf "$cache/npm-$npm_version.tgz" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
  rm "$cache/npm-$npm_version.tgz"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
  # node-gyp cannot download Node's headers here: npm hands it the ones in /usr/local/include/node.
  echo "nodedir=/usr/local" > "$rootfs/usr/local/etc/npmrc"
  cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
  chroot "$rootfs" groupadd --gid 1000 node
  chroot "$rootfs" useradd --uid 1000 --gid node --create-home --shell /bin/bash node
  # As Debian's slim images: no documentation, manual pages or translations.
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/usr/share/{doc,man,info,locale}/*
  printf 'path-exclude /usr/share/%s/*\n' doc man info locale > "$rootfs/etc/dpkg/dpkg.cfg.d/slim"
  tar -C "$rootfs" -cf "$base_tar.part" .
  rm -rf "$rootfs"
  mv "$base_tar.part" "$base_tar"
}

# The base is made again when the Node version or the recipe above changes.
base_key="$node_version-$(declare -f make_base_tar | sha1sum | cut -c1-12)"
base_tar="$cache/node-$base_key.tar"
mkdir -p "$cache"
started=$SECONDS
if [ ! -f "$base_tar" ]; then
  rm -f "$cache"/node-*.tar
  make_base_tar
fi
if [ "$(bah inspect --type image --format '{{index .OCIv1.Config.Labels "tracker.base"}}' "$base_image" 2>/dev/null)" != "$base_key" ]; then
  echo "== importing the base as $base_image"
  bah rmi --force "$base_image" > /dev/null 2>&1 || true
  base_ctr="$(bah from scratch)"
  bah add --quiet "$base_ctr" "$base_tar" / > /dev/null
  bah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env NODE_VERSION="$node_version" --env NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
    --cmd node --label tracker.base="$base_key" "$base_ctr"
  bah commit --quiet --rm "$base_ctr" "$base_image" > /dev/null
fi
echo "== the base is ready ($((SECONDS - started)) s)"

# The storage is this script's own: what a run stopped midway left (working containers, untagged layers) goes too.
cleanup() {
  bah rm --all > /dev/null 2>&1 || true
  bah rmi --force "$image" > /dev/null 2>&1 || true
  bah rmi --prune > /dev/null 2>&1 || true
}
cleanup
trap cleanup EXIT
started=$SECONDS
echo "== building the image from the Dockerfile"
# Docker's format keeps the HEALTHCHECK (OCI's has none). The build's output is shown when it fails.
bah bud --isolation=chroot --pull=never --format=docker --layers=false --quiet --tag "$image" . > "$cache/build.log" 2>&1 \
  || { tail -40 "$cache/build.log" >&2; echo "test:container: the image did not build (the whole output: $cache/build.log)" >&2; exit 1; }
echo "== built in $((SECONDS - started)) s; image size: $(bah images --format '{{.Size}}' "$image")"

# The service in the image, started by scripts/e2e-against-build.sh as it starts the production build: SQLite (the
# image's default place, /data) and a MariaDB/MySQL database of its own.
export SERVICE_IMAGE="$image" SERVICE_BUILDAH="buildah --root $cache/storage --runroot $cache/run --storage-driver=vfs"
echo "== e2e suite against the container on SQLite"
started=$SECONDS
SERVICE_DATABASE=sqlite bash scripts/e2e-against-build.sh
echo "== on SQLite: $((SECONDS - started)) s"
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-mysql://root@127.0.0.1:3306}"
if node -e "import('mysql2/promise').then(m => m.default.createConnection(process.env.TEST_DATABASE_URL)).then(c => c.end()).catch(() => process.exit(1))"; then
  echo "== e2e suite against the container on MariaDB/MySQL ($TEST_DATABASE_URL)"
  started=$SECONDS
  SERVICE_DATABASE=mysql bash scripts/e2e-against-build.sh
  echo "== on MariaDB/MySQL: $((SECONDS - started)) s"
else
  skip "MariaDB/MySQL at $TEST_DATABASE_URL is not reachable"
fi
