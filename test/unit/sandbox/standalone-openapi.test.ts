import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODE_LANGUAGES } from "@/lib/shared/code-samples";
import { startSandboxServer, type SandboxServer } from "@/lib/sandbox/server";

interface CodeSample {
  lang: string;
  label: string;
  source: string;
}
type Operation = { "x-codeSamples": CodeSample[] };
interface SandboxDocument {
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
}

describe("the standalone sandbox's /openapi.json", () => {
  let server: SandboxServer;
  beforeAll(async () => {
    server = await startSandboxServer({ port: 0 });
  });
  afterAll(() => server.close());

  it("names the server's own absolute address, in `servers` and in every code sample", async () => {
    const response = await fetch(`${server.url}/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as SandboxDocument;
    expect(document.servers[0]!.url).toBe(server.url);
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(4);
    for (const operation of operations) {
      const samples = operation["x-codeSamples"];
      expect(samples.map((sample) => sample.lang)).toEqual([...CODE_LANGUAGES]);
      for (const sample of samples) {
        expect(sample.label).not.toBe("");
        expect(sample.source).toContain(server.url.replace("http://", "").split(":")[0]);
        expect(sample.source).not.toMatch(/demo-secret|__CSC_/);
      }
    }
  });

  it("refuses a method other than GET in the sandbox's error shape", async () => {
    const response = await fetch(`${server.url}/openapi.json`, { method: "POST" });
    expect(response.status).toBe(405);
    expect(((await response.json()) as { errors: Array<{ code: string }> }).errors[0]!.code).toBe(
      "method_not_allowed",
    );
  });
});
