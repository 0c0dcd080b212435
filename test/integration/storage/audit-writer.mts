/**
 * A separate console process appending to the audit log, for the concurrent-writers test:
 * `node --conditions=react-server --import tsx audit-writer.mts <databaseUrl> <writer> <count>`.
 * It migrates first (as a starting console does), so two writers also race on the migrations, prints "ready",
 * and appends once it reads a line on stdin.
 */
import { createDatabaseRegistry } from "@/lib/server/database";
import { createAuditLog } from "@/lib/server/audit";

const [databaseUrl, writer, count] = process.argv.slice(2);
if (!databaseUrl || !writer || !count)
  throw new Error("usage: audit-writer.mts <databaseUrl> <writer> <count>");

const databases = createDatabaseRegistry();
const { db } = await databases.open({ databaseUrl, maxConnections: 2 });
const audit = createAuditLog({ db, hmacKey: "audit-test-hmac-key" }); // the key the test verifies with: the chain is keyed
// Connected and migrated: wait for the test's signal so that both writers start together.
process.stdout.write("ready\n");
await new Promise((resolve) => process.stdin.once("data", resolve));
for (let index = 0; index < Number(count); index += 1) {
  await audit.append({ event: "test.write", outcome: "success", userId: writer, details: { index } });
}
await databases.close();
process.stdout.write("done\n");
