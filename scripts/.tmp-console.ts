import { startConsole } from "@/test/support/console-server";
void startConsole({}).then((server) => {
  console.log(server.url);
  process.on("SIGTERM", () => void server.stop().then(() => process.exit(0)));
  setInterval(() => undefined, 1 << 30);
});
