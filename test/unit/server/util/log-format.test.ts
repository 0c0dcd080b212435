/** Log lines a person reads at a terminal, and JSON everywhere else, unless LOG_FORMAT says otherwise. */
import { describe, expect, it } from "vitest";
import { configuredLogFormat } from "@/lib/server/util/log-format";
import { createPrettyLine } from "@/lib/server/util/pretty-log-line";

const json = (fields: Record<string, unknown>) =>
  JSON.stringify({
    level: 30,
    time: "2026-11-28T10:12:03.456Z",
    service: "card-services-console",
    ...fields,
  });

describe("LOG_FORMAT", () => {
  it("follows stdout when unset: readable at a terminal, JSON in a file or a container", () => {
    expect(configuredLogFormat({}, true)).toBe("pretty");
    expect(configuredLogFormat({}, false)).toBe("json");
    expect(configuredLogFormat({ LOG_FORMAT: " " }, true)).toBe("pretty");
  });

  it("chooses whatever stdout is", () => {
    expect(configuredLogFormat({ LOG_FORMAT: "json" }, true)).toBe("json");
    expect(configuredLogFormat({ LOG_FORMAT: "Pretty" }, false)).toBe("pretty");
  });
});

describe("a readable log line", () => {
  const pretty = createPrettyLine(false);

  it("shows an API call as method, path, status and time on one line, the other fields after it", () => {
    const line = pretty(
      json({
        method: "GET",
        path: "/api/session",
        status: 200,
        duration_ms: 3.1,
        client: "127.0.0.1",
        msg: "api call",
      }),
    );
    expect(line).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/api\/session 200 3\.1 ms \{"client":"127\.0\.0\.1"\}\n$/,
    );
    expect(line).not.toContain("service");
    expect(line).not.toContain('"method"');
  });

  it("keeps any other line's message and every field, on one line", () => {
    const line = pretty(
      JSON.stringify({
        level: 40,
        time: "2026-11-28T10:12:03.456Z",
        key: "AUDIT_HMAC_KEY",
        status: "x",
        msg: "a key",
      }),
    );
    expect(line).toMatch(/WARN: a key \{"key":"AUDIT_HMAC_KEY","status":"x"\}\n$/);
    expect(line.trimEnd().split("\n")).toHaveLength(1);
  });

  it("passes a line that is not JSON through as it is", () => {
    expect(pretty("not json\n")).toBe("not json\n");
  });
});
