# The BFF (`npm run serve`) as a container: built with every dependency in the first stage, run in the second with the
# production dependencies and the build only. docs/operations.md says how to run it and what to set.
#
#   docker build -t pix-checkout .
#   docker run -p 3000:3000 -v pix-data:/data -e PROVIDER_BASE_URL=… -e ORDERS_URL=… … pix-checkout

FROM node:20-slim AS build
WORKDIR /app
# A compiler for better-sqlite3, should no prebuilt binary fit the platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
# The element, the console and the server (dist/widget, dist/console, dist/server).
RUN npm run build

FROM node:20-slim
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only; the compiler is there for better-sqlite3's fallback and gone in the same layer.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && npm ci --omit=dev \
 && npm cache clean --force \
 && apt-get purge -y --auto-remove python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /app/dist ./dist
# The payment link's page reads its script and stylesheet beside its source's place (scripts/build-server.mjs).
COPY --from=build /app/server/pay-page ./server/pay-page
RUN mkdir /data && chown node:node /data

# Every variable here is one server/config.ts reads; the provider, the order service and the secrets come from the
# deployment (docker run -e, compose.yaml, the orchestrator's secrets).
ENV HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
VOLUME ["/data"]
EXPOSE 3000
USER node

# Ready means the store answers and the process is not draining (GET /readyz); node:20-slim has no curl.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# The built server with plain Node, as PID 1: it stops cleanly on the SIGTERM of `docker stop`.
CMD ["node", "dist/server/main.js"]
