# syntax=docker/dockerfile:1
# Tracker: build with the dev dependencies (TypeScript), run with the production ones only, as a non-root user.
# Node 24 LTS, pinned: the version of the project's own runtime (package.json's `node` dev dependency), which
# npm test runs on. BASE_IMAGE is the registry's image of that version unless told otherwise (`npm run
# test:container` builds this file on a local base of the same shape).
ARG NODE_VERSION=24.21.0
ARG BASE_IMAGE=node:${NODE_VERSION}-bookworm-slim

FROM ${BASE_IMAGE} AS build
WORKDIR /app
# Build tools for node-gyp: npm runs it for every package with a binding.gyp. better-sqlite3 ships N-API binaries
# (glibc and musl, x64 and arm64), so its gyp step builds nothing here, but gyp itself needs Python and make.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
# The `prepare` script (scripts/build-if-stale.mjs) runs at the end of `npm ci`; without src/ yet it builds
# nothing. The install scripts run (better-sqlite3's binding, the `node` package's binary).
COPY package.json package-lock.json ./
COPY scripts/build-if-stale.mjs ./scripts/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

FROM ${BASE_IMAGE} AS run
ENV NODE_ENV=production \
    TZ=UTC \
    MALLOC_ARENA_MAX=2 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=sqlite:/data/tracker.sqlite \
    TRACKER_DATA_DIR=/data
WORKDIR /app
# Owned by root and read-only for the service user; only /data is writable.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# `tracker <command>` inside the container runs the admin command line (npm run tracker needs the build tools).
RUN printf '#!/bin/sh\nexec node /app/dist/src/cli/main.js "$@"\n' > /usr/local/bin/tracker \
 && chmod 0755 /usr/local/bin/tracker \
 && mkdir -p /data \
 && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=1024", "dist/src/main.js"]
