import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));
const alias = {
  "@/": `${root}/`,
  // `server-only` throws outside a React Server Components bundle; under test it is a no-op.
  "server-only": `${root}/test/support/empty-module.ts`,
};

export default defineConfig({
  resolve: { alias },
  test: {
    // Only to catch hangs: tests never assert on speed.
    testTimeout: 60_000,
    hookTimeout: 180_000,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.{ts,tsx}"],
          environment: "node",
          // Route tests open an embedded database (PGlite) on first use.
          testTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          environment: "node",
          // One Chromium and one console server at a time on a 2-core machine.
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
