import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";

/**
 * Server-only modules: they hold secrets, touch the database or need Node. Pages (components/**) and the
 * browser's helpers (lib/client/**) may import their types, never their code.
 */
const SERVER_MODULES = [
  "@/lib/server",
  "@/lib/server/*",
  "@/lib/sandbox",
  "@/lib/sandbox/*",
  "node:*",
  "server-only",
];

const browserImportRules = (extra = []) => [
  "error",
  {
    patterns: [
      {
        group: SERVER_MODULES,
        allowTypeImports: true,
        message:
          "A server-only module: import its types only (`import type`), or move the shared part to lib/shared.",
      },
      ...extra,
    ],
  },
];

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  prettier,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Type-aware rules: a forgotten promise loses its error; a switch over a union must name every member.
    files: ["**/*.{ts,tsx}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/switch-exhaustiveness-check": [
        "error",
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
    },
  },
  {
    files: ["components/**/*.{ts,tsx}", "lib/client/**/*.{ts,tsx}"],
    // Server components: they read the session and identity on the server by design.
    ignores: [
      "components/shell/session-provider.tsx",
      "components/team/page-gate.ts",
      "components/sandbox/sandbox-guide.tsx",
    ],
    rules: { "@typescript-eslint/no-restricted-imports": browserImportRules() },
  },
  {
    // zod stays out of the browser's helpers (first-load JS); the history file's schema is the one intended use.
    files: ["lib/client/**/*.{ts,tsx}"],
    ignores: ["lib/client/history-schema.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": browserImportRules([
        {
          group: ["zod", "zod/*"],
          message: "No zod in lib/client: validate with lib/shared's light checks.",
        },
      ]),
    },
  },
  {
    // Shared code runs everywhere (server, browser, sandbox, CLI): nothing server-only, browser-only or framework.
    files: ["lib/shared/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: SERVER_MODULES, message: "lib/shared runs in the browser too: no server modules." },
            {
              group: ["@/lib/client", "@/lib/client/*"],
              message: "lib/shared runs on the server too: no browser modules.",
            },
            {
              group: ["react", "react-dom", "next", "next/*", "swr", "swr/*"],
              message: "lib/shared is framework-free.",
            },
          ],
        },
      ],
    },
  },
  {
    // Server code never reaches into the browser's modules; the sandbox runs alone, without Next or React.
    files: ["lib/server/**/*.{ts,tsx}", "lib/sandbox/**/*.{ts,tsx}", "app/api/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/client", "@/lib/client/*"],
              allowTypeImports: true,
              message: "Browser code: move what the server needs to lib/shared.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/sandbox/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/client", "@/lib/client/*"],
              message: "The sandbox runs alone: no browser modules.",
            },
            {
              group: ["next", "next/*", "react", "react-dom"],
              message: "The sandbox runs alone: nothing from Next or React.",
            },
          ],
        },
      ],
    },
  },
  { ignores: [".next/**", ".next-*/**", "node_modules/**", "test-results/**", "next-env.d.ts"] },
];

export default config;
