// drizzle-kit: `npm run db:generate` writes a new SQL migration for changes in lib/server/database/schema.ts.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/server/database/schema.ts",
  out: "./db/migrations",
});
