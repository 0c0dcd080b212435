# syntax=docker/dockerfile:1
# The Card Services Console as a container image: `node server.js` (the console, port 3000) or
# `node sandbox.mjs` (the standalone sandbox, 127.0.0.1:4010). compose.yaml shows a team deployment.

# 1. Dependencies, from the lock file only (cached until it changes).
FROM node:22.23.3-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund

# 2. The production build: `next build`, then scripts/standalone.mjs completes .next/standalone (our server,
#    the health check, the bundled sandbox, static files, public/, db/migrations).
FROM node:22.23.3-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY --from=deps /app/node_modules ./node_modules
COPY . .
RUN npm run build

# 3. What runs: only the standalone output (with the starter clients' listed files), .next/static, public/ and the migrations, owned by root and
#    read-only for the unprivileged user; the embedded database and generated keys go to /data.
FROM node:22.23.3-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    HOSTNAME=0.0.0.0 \
    DATA_DIR=/data
RUN groupadd --system --gid 10001 console \
 && useradd --system --uid 10001 --gid console --no-create-home --shell /usr/sbin/nologin console \
 && mkdir /data && chown console:console /data
COPY --from=build /app/.next/standalone ./
COPY --from=build /app/.next/static ./.next/static
COPY --from=build /app/public ./public
COPY --from=build /app/db/migrations ./db/migrations
USER console
VOLUME ["/data"]
EXPOSE 3000
# No curl in the image: Node itself asks /api/health (with the Host header of PUBLIC_URL).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "healthcheck.mjs"]
# The same heap bound as `npm start` (scripts/server-node-options.mjs): V8 would size it from the host's memory.
# serve.mjs drains on SIGTERM: no new connections, in-flight calls finish (SHUTDOWN_GRACE_MS, 8 s), exit 0.
STOPSIGNAL SIGTERM
CMD ["node", "--max-old-space-size=384", "server.js"]
