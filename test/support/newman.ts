/**
 * Postman's own tools under test: newman (its collection runner) as a library, openapi-to-postmanv2 (what
 * Postman runs when a document is imported by URL), and a small upstream on 127.0.0.1 that breaks one promise
 * of the specification by rewriting the sandbox's answers.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import newman, { type NewmanRunSummary } from "newman";
import { convertV2 } from "openapi-to-postmanv2";

export function runNewman(
  collection: object,
  envVar: Record<string, string> = {},
): Promise<NewmanRunSummary> {
  return new Promise((resolve, reject) => {
    newman.run(
      {
        collection,
        envVar: Object.entries(envVar).map(([key, value]) => ({ key, value })),
        reporters: [],
        timeoutRequest: 15_000,
      },
      (error, summary) => (error ? reject(error) : resolve(summary)),
    );
  });
}

/** The failed assertions of a run, as "request: test name: message" lines. */
export function failuresOf(summary: NewmanRunSummary): string[] {
  return summary.run.failures.map((failure) => {
    const test = (failure.error as { test?: string }).test;
    return [failure.source?.name ?? "?", test, failure.error.message].filter(Boolean).join(": ");
  });
}

/**
 * What Postman makes of an OpenAPI document imported by URL: its defaults (values faked from the schemas), or
 * with "Example" chosen as the parameter resolution.
 */
export function convertOpenApi(
  document: object,
  resolution: "Schema" | "Example" = "Schema",
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    convertV2(
      { type: "json", data: JSON.stringify(document) },
      { parametersResolution: resolution },
      (error, result) => {
        if (error) return reject(new Error(error.message));
        const data = result?.output?.[0]?.data;
        if (!result?.result || !data) return reject(new Error(result?.reason ?? "no output"));
        resolve(data as Record<string, unknown>);
      },
    );
  });
}

export interface BrokenUpstream {
  url: string;
  close: () => Promise<void>;
}

/**
 * Forwards to `target` and passes every answer through `rewrite` (given the path and the parsed JSON body), so
 * a test can make an otherwise faithful upstream break exactly one promise.
 */
export async function startRewritingUpstream(
  target: string,
  rewrite: (path: string, body: unknown) => unknown,
): Promise<BrokenUpstream> {
  const server: Server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(
      Object.entries(incoming.headers).filter(
        (entry): entry is [string, string] => typeof entry[1] === "string" && entry[0] !== "host",
      ),
    );
    const answer = await fetch(target + (incoming.url ?? "/"), {
      method: incoming.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const text = await answer.text();
    let body: string = text;
    try {
      body = JSON.stringify(rewrite(incoming.url ?? "/", JSON.parse(text)));
    } catch {
      // Not JSON: passed on as it came.
    }
    outgoing.writeHead(answer.status, { "Content-Type": answer.headers.get("content-type") ?? "text/plain" });
    outgoing.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
