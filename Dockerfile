# The gateway as a production image: `node dist/main.js` is PID 1's only child of note (no npm or
# tsx in between), so SIGTERM from the orchestrator reaches the server and it drains subscriptions.
# The same image runs the emulator (`node dist/emulator/main.js`) for demos; see compose.yaml.

FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY examples ./examples
RUN npm run build

FROM node:24-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# GraphiQL's default operations (read at start even when GraphiQL is off).
COPY examples ./examples
USER node
EXPOSE 4000
HEALTHCHECK --interval=10s --timeout=3s CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||4000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/main.js"]
