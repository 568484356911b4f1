# The Kickback server image (docker-compose.yml runs several of it behind Caddy).
# Build: docker build -t kickback .   Run: see docs/operations.md#docker-compose.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=build --chown=node:node /app /app
# The backups volume (BACKUP_DIR=/backups in docker-compose.yml) and the web volume (the `web`
# service copies the web app's build there for Caddy) take these folders' owner.
RUN mkdir /backups /web && chown node:node /backups /web
USER node
EXPOSE 3000
# SIGTERM drains (DRAIN_MS) before the process stops: give it that long plus the shutdown.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "apps/server/dist/main.js"]
