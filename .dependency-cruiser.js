/**
 * The module graph's rules (`npm run depcheck`, a step of `npm test`): no import cycle anywhere in our code (the
 * app, scripts and tests; ESLint leaves cycles to this check, which walks the graph once), and each layer imports
 * only what it may. lib/shared is used by both sides, so it imports no side; the browser's code never reaches
 * the server's; the sandbox runs as its own process (`npm run sandbox`), so it needs nothing of the console.
 */

/**
 * lib/server's folders by rank, bottom to top: a folder imports only its own rank or below (siblings of one rank
 * may import each other while no cycle forms), type-only imports included. The route catalogue (routes/) declares
 * the features' routes with their schemas, and the OpenAPI document (openapi/) is generated from it. The
 * composition root (root/) builds everything below it and hands it down; app/ and components/ sit above all.
 */
const SERVER_RANKS = [
  ["util"],
  ["config"],
  ["database"],
  ["audit", "session", "card-api", "metrics", "token"],
  ["identity"],
  ["http"],
  [
    "inquiry",
    "lookup",
    "support",
    "certification",
    "client-certification",
    "postman",
    "starter-clients",
    "monitors",
  ],
  ["routes", "openapi"],
  ["root"],
];

const layerRules = SERVER_RANKS.slice(0, -1).map((folders, rank) => ({
  name: `server-layers-${folders.join("-")}`,
  severity: "error",
  comment: `lib/server/{${folders.join(",")}} (rank ${rank}) imports only its own rank or below.`,
  from: { path: `^lib/server/(${folders.join("|")})/` },
  to: {
    path: `^lib/server/(${SERVER_RANKS.slice(rank + 1)
      .flat()
      .join("|")})/`,
  },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: "server-folders-ranked",
      severity: "error",
      comment: "Every lib/server module lives in a ranked folder (SERVER_RANKS above).",
      from: { path: "^lib/server/" },
      to: { path: `^lib/server/(?!(${SERVER_RANKS.flat().join("|")})/)` },
    },
    {
      name: "no-circular",
      severity: "error",
      comment: "An import cycle: modules that load each other half-initialised.",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "shared-imports-no-side",
      severity: "error",
      comment: "lib/shared is imported by the server and the browser alike.",
      from: { path: "^lib/shared/" },
      to: { path: "^(lib/server|lib/client|lib/sandbox|components|app)/" },
    },
    {
      name: "client-not-server",
      severity: "error",
      comment: "lib/client runs in the browser: server code holds secrets and needs Node.",
      from: { path: "^lib/client/" },
      to: { path: "^lib/server/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "sandbox-stands-alone",
      severity: "error",
      comment:
        "The sandbox runs without the console (`npm run sandbox`): the console builds it, never the reverse.",
      from: { path: "^lib/sandbox/" },
      to: { path: "^(lib/server|lib/client|components|app)/|^node_modules/next/" },
    },
    {
      name: "components-not-server",
      severity: "error",
      comment:
        "Pages' components render in the browser too. The two server components that read the session and " +
        "identity on the server by design (as eslint.config.mjs lists them) are the exception.",
      from: {
        path: "^components/",
        pathNot: "^components/(shell/session-provider\\.tsx|team/page-gate\\.ts)$",
      },
      to: { path: "^lib/server/", dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|\\.next|\\.next-.*|test-results|coverage)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
