// The container's HEALTHCHECK (no curl in the image): GET /api/health on this instance; exit 0 when it answers
// 200. The Host header is the first PUBLIC_URL's, because the console refuses hosts it does not answer to.
import { get } from "node:http";

const port = Number(process.env.PORT || 3000);
const publicUrl = (process.env.PUBLIC_URL || `http://localhost:${port}`).split(",")[0].trim();
const request = get(
  { host: "127.0.0.1", port, path: "/api/health", headers: { host: new URL(publicUrl).host }, timeout: 4000 },
  (response) => {
    response.resume();
    process.exit(response.statusCode === 200 ? 0 : 1);
  },
);
request.on("timeout", () => request.destroy(new Error("timed out")));
request.on("error", (error) => {
  console.error(`health check failed: ${error.message}`);
  process.exit(1);
});
