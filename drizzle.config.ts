// drizzle-kit: `npm run db:generate` writes a new SQL migration for changes in lib/server/db/schema.ts.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/server/db/schema.ts",
  out: "./db/migrations",
});
