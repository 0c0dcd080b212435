/**
 * The process's stateful services (lib/server/root/storage), as the root opens them: the database (PGlite in
 * DATA_DIR or DATABASE_URL), one audit log, one session store, one rate limiter and the services over them.
 */
import "server-only";
export { getServices } from "./process";
