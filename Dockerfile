# The POS server in one image: the API, the built web app, and (unused when DATABASE_URL is set)
# the embedded PostgreSQL binaries from npm. See README "Running at a shop".
#   docker build -t pos .
#   docker run -p 8000:8000 -v pos-data:/data -e TLS_HOSTS=pos.shop.lan,192.168.1.20 pos
# or with a PostgreSQL container beside it: docker compose up -d (compose.yaml).
# Needs the production build (`npm run build` compiling the API and the web app, `npm start`
# running plain node).

FROM node:24-bookworm-slim AS build
WORKDIR /app
# Dependencies first (cached while only the source changes). The platform's PostgreSQL binaries
# come with @embedded-postgres/<platform> (root package.json allowScripts runs its postinstall).
COPY package.json package-lock.json ./
COPY packages/domain/package.json packages/domain/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
RUN npm ci --no-audit --no-fund
COPY . .
# (Dev dependencies stay: `npm prune --omit=dev` can follow once `npm start` never builds at start.)
RUN npm run build

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app /app
# The data folder: jwt-secret, tls/ (the local CA), backups/, and pg/ when no DATABASE_URL is given.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
# Not root: the embedded PostgreSQL refuses root, and the server needs no privilege on port 8000.
USER node
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["node", "deploy/healthcheck.mjs"]
# npm start = the compiled server; SIGTERM drains requests and stops PostgreSQL cleanly.
STOPSIGNAL SIGTERM
CMD ["npm", "start"]
