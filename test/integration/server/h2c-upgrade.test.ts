/**
 * Clients that ask to upgrade a plain-HTTP request to HTTP/2 (`Upgrade: h2c`: `curl --http2`, Java's default
 * HttpClient) get an HTTP/1.1 answer, as from Node's own server, not a closed connection.
 */
import { execFile, execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedConsole, type ConsoleServer } from "../../support/console-server";
import { fileTempDir } from "@/test/support/temp-dirs";

const run = promisify(execFile);
const TOKEN_PATH = "/sandbox/reporting/v1/auth/token";
const TOKEN_BODY = JSON.stringify({
  client_id: "demo-client",
  client_secret: "demo-secret",
  grant_type: "client_credentials",
});

let server: ConsoleServer;

beforeAll(async () => {
  server = await sharedConsole();
});

function has(tool: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Sends `text` as it is; resolves with what came back when the server closes the connection. */
function exchange(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1");
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
    socket.write(text);
  });
}

const upgradeHeaders = () =>
  [
    `Host: localhost:${server.port}`,
    "Connection: Upgrade, HTTP2-Settings, close",
    "Upgrade: h2c",
    "HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA",
  ].join("\r\n");

describe("Upgrade: h2c", () => {
  it("GET is answered over HTTP/1.1", async () => {
    const answer = await exchange(`GET /api/health HTTP/1.1\r\n${upgradeHeaders()}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).not.toMatch(/^HTTP\/1\.1 101/);
  });

  it("POST with a body is answered over HTTP/1.1, the body read", async () => {
    const answer = await exchange(
      `POST ${TOKEN_PATH} HTTP/1.1\r\n${upgradeHeaders()}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(TOKEN_BODY)}\r\n\r\n${TOKEN_BODY}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('"access_token"');
  });

  it.skipIf(!has("curl"))("curl --http2 gets the token", async () => {
    const { stdout } = await run("curl", [
      "-sS",
      "--http2",
      "-H",
      "Content-Type: application/json",
      "-d",
      TOKEN_BODY,
      "-w",
      "\n%{http_code} %{http_version}",
      `http://localhost:${server.port}${TOKEN_PATH}`,
    ]);
    expect(stdout).toContain('"access_token"');
    expect(stdout.trim().split("\n").at(-1)).toBe("200 1.1");
  });

  it.skipIf(!has("java"))(
    "Java's default HttpClient gets the token",
    async () => {
      const folder = fileTempDir("h2c-probe-");
      const probe = path.join(folder, "Probe.java");
      writeFileSync(probe, JAVA_PROBE);
      const { stdout } = await run("java", [probe, `http://localhost:${server.port}${TOKEN_PATH}`], {
        timeout: 60_000,
      });
      expect(stdout).toMatch(/^200 /);
      expect(stdout).toContain('"access_token"');
    },
    90_000,
  );
});

// HttpClient.newHttpClient() prefers HTTP/2, which over http:// it asks for with Upgrade: h2c.
const JAVA_PROBE = `
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

public class Probe {
  public static void main(String[] args) throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    HttpRequest request = HttpRequest.newBuilder(URI.create(args[0]))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(${JSON.stringify(TOKEN_BODY)}))
        .build();
    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
    System.out.println(response.statusCode() + " " + response.body());
  }
}
`;
