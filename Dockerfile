# The site: remix-serve on Node 22, non-root, configured by environment at run time.
#   docker build -t studio-site .
#   docker run -p 3000:3000 -e SUPABASE_URL=... -e SUPABASE_ANON_KEY=... -e SITE_URL=... studio-site
ARG BASE_IMAGE=node:22-bookworm-slim

FROM ${BASE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: nothing the build needs runs one (esbuild's binary comes as a package).
RUN npm ci --no-audit --no-fund --ignore-scripts

FROM deps AS build
COPY remix.config.js tsconfig.json remix.env.d.ts ./
COPY app ./app
COPY public ./public
COPY supabase/functions/_shared ./supabase/functions/_shared
# `npm run build` ends by writing the built scripts' brotli copies (decision 030).
COPY scripts/assets/precompress.mjs ./scripts/assets/
RUN npm run build

FROM ${BASE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force

FROM ${BASE_IMAGE}
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY --from=prod-deps --chown=root:root /app/node_modules ./node_modules
COPY --chown=root:root package.json ./
COPY --from=build --chown=root:root /app/build ./build
COPY --from=build --chown=root:root /app/public ./public
# Files stay root-owned and read-only to the process; it runs as the image's unprivileged user.
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Exec form: node is PID 1 and gets SIGTERM; remix-serve closes the server and exits 0.
CMD ["node", "node_modules/@remix-run/serve/dist/cli.js", "build/index.js"]
