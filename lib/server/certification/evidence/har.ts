/** run.har: the run's exchange records as HAR 1.2, for any HAR viewer. Masked and redacted as recorded. */
import type { ExchangeRecord } from "@/lib/shared/contracts";

interface HarHeader {
  name: string;
  value: string;
}

function headerList(headers: Record<string, string>): HarHeader[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

function bodyText(body: unknown, isText: boolean | undefined): string {
  if (body === null || body === undefined) return "";
  return isText && typeof body === "string" ? body : JSON.stringify(body);
}

export function buildHar(
  exchanges: readonly ExchangeRecord[],
  caseOf: (exchangeId: string) => string | undefined,
  creator: { name: string; version: string },
) {
  return {
    log: {
      version: "1.2",
      creator,
      entries: exchanges.map((record) => {
        const url = new URL(record.request.url);
        const requestText = bodyText(record.request.body, record.request.body_is_text);
        const responseText = bodyText(record.response.body, record.response.body_is_text);
        const mimeType = record.response.headers["content-type"] ?? "application/octet-stream";
        return {
          startedDateTime: record.started_at,
          time: record.duration_ms,
          request: {
            method: record.request.method,
            url: record.request.url,
            httpVersion: "HTTP/1.1",
            cookies: [],
            headers: headerList(record.request.headers),
            queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
            ...(record.request.method === "GET"
              ? {}
              : {
                  postData: {
                    mimeType: record.request.headers["Content-Type"] ?? "application/json",
                    text: requestText,
                  },
                }),
            headersSize: -1,
            bodySize: record.request.method === "GET" ? 0 : Buffer.byteLength(requestText),
          },
          response: {
            status: record.response.status,
            statusText: "",
            httpVersion: "HTTP/1.1",
            cookies: [],
            headers: headerList(record.response.headers),
            content: { size: Buffer.byteLength(responseText), mimeType, text: responseText },
            redirectURL: "",
            headersSize: -1,
            bodySize: Buffer.byteLength(responseText),
          },
          cache: {},
          timings: { send: 0, wait: record.duration_ms, receive: 0 },
          comment: `${caseOf(record.id) ?? "run"} · exchange ${record.id} · ${record.operation}`,
        };
      }),
    },
  };
}
