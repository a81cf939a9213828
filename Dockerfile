# syntax=docker/dockerfile:1
# EU Mail: one image for every role (ROLES=web, smtp, worker; docs/deploy.md).
# scripts/image-steps.mjs runs these same steps without Docker (CI on a machine with no daemon):
# keep every RUN relative to its WORKDIR, or mark it "image-steps: skip" when it needs the image's
# own root file system.

# deps: the full dependency tree, dev dependencies included (the builds need them).
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# build: the server bundle (dist/server, esbuild) and the dashboard (.next, next build), then the
# dev dependencies pruned away. `npm run build` stamps both, but the runtime does not go through
# scripts/ensure-build.mjs at all: it starts dist/server/main.mjs itself.
FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json next.config.mjs postcss.config.mjs ./
COPY app ./app
COPY server ./server
COPY db ./db
COPY emails ./emails
COPY inngest ./inngest
COPY scripts ./scripts
RUN npm run build && npm prune --omit=dev --no-audit --no-fund && rm -rf .next/cache

# runtime: the bundles, the production dependencies, the migrations; no sources, no compilers.
FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/next.config.mjs ./next.config.mjs
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/db/migrations ./db/migrations
COPY --from=build /app/scripts/healthcheck.mjs ./scripts/healthcheck.mjs
# Next writes its cache under .next at run time: the one folder of the app the server may change.
COPY --from=build --chown=node:node /app/.next ./.next
# image-steps: skip (the volume's mount point in the image's root, owned by the image's own user)
RUN install -d -o node -g node /data
VOLUME /data
# `node` (uid 1000) is the unprivileged user the node image creates.
USER node
# HTTP; SMTP relay gateway STARTTLS and TLS; bounce receiver (publish it as port 25).
EXPOSE 3000 2587 2465 2525
STOPSIGNAL SIGTERM
# Role-aware: /api/health on a web process, the SMTP greeting on an smtp-only one (scripts/healthcheck.mjs).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 CMD ["node", "scripts/healthcheck.mjs"]
# node itself, not `npm start`: no build check at start (the sources are not in the image) and
# SIGTERM reaches the server directly. Semi-spaces of up to 64 MB, as `npm start` runs it: fewer
# scavenges of the garbage each request leaves (docs/deploy.md, "Node's young generation").
CMD ["node", "--enable-source-maps", "--max-semi-space-size=64", "dist/server/main.mjs"]
