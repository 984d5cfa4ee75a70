# Painel in one container: `docker build -t painel .`, then
# `docker run -p 8080:8080 -v painel-data:/data painel`.
# server/container.test.ts keeps this file in step with the server (paths, port, env, health);
# scripts/lint-dockerfile.ts lints it.

# Node 26 "Lithium" has been the Active LTS line since 2026-10-28 (26.13.0), supported until
# April 2029; 24 moved to Maintenance LTS on 2026-10-20. Pinned to a full version so a rebuild
# changes nothing by surprise; bump it on purpose, and both stages follow.
# Slim: the official image, on glibc (Debian, not musl/Alpine), without the compilers and
# headers of the full image, which nothing here needs: no production dependency compiles or has
# an install script. The one native addon, libsql (the embedded SQLite), comes prebuilt for glibc
# as an npm package (@libsql/linux-x64-gnu, -arm64-gnu) and uses Node-API, so it runs on any Node. Trixie, because it is Debian stable and Node 26's default;
# bookworm left Debian's regular security support in June 2026.
ARG NODE_IMAGE=node:26.13.0-trixie-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Dependencies first, in a layer of their own: it is rebuilt only when the lockfile changes.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY client ./client
COPY server ./server
COPY common ./common
COPY scripts ./scripts
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
# tini as PID 1: it forwards SIGTERM to node (whose graceful shutdown finishes requests in
# flight) and reaps zombies, which node as PID 1 would not.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
# Production dependencies only. No install scripts: none of them has one (only esbuild, a dev
# dependency, does), and a script that appears in a later version must be a decision, not a
# side effect of a rebuild.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && npm cache clean --force
COPY --from=build /app/dist ./dist
# The code stays root's and read-only to the server; only the data folder is the node user's.
# A new named volume copies this ownership.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8080
# The compiled server/health/healthcheck.ts: plain node, so the image needs no curl. Its own 3 s fetch
# timeout reports a hung server before Docker's --timeout kills it. The start period covers the
# embedded database's first start (creating and migrating it in /data), and the one-time copy of
# an earlier version's PGlite database on an upgrade.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --start-interval=2s --retries=3 \
  CMD ["node", "dist/server/healthcheck.js"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/server/main.js"]
