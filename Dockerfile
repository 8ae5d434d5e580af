# One image for the api, the worker and the migrations (docker-compose.yml picks the command).
# Build stage: every dependency, compile TypeScript. Runtime stage: production dependencies only
# (no TypeScript, no test tools, no embedded Postgres binaries: those are devDependencies).

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the postinstall build runs below, once the sources are here
RUN npm ci --ignore-scripts
COPY tsconfig.json openapi.yaml ./
COPY api ./api
COPY activities ./activities
COPY bin ./bin
COPY config ./config
COPY db ./db
COPY domain ./domain
COPY integrations ./integrations
COPY workflows ./workflows
COPY devserver ./devserver
COPY test ./test
COPY bench ./bench
# the customer booking page: built by Vite into dist/public (hashed assets the api serves)
COPY web ./web
RUN npm run build && rm -rf dist/test dist/bench dist/devserver

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY openapi.yaml ./
# The folder outboxes (used when SMTP_URL / SVEVE_* are unset) live in DATA_DIR=/app/.data.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 3000
CMD ["node", "dist/bin/api.js"]
