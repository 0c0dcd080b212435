/**
 * The readable form of a log line (LOG_FORMAT=pretty, lib/server/util/log-format.ts): what a person at a terminal
 * reads, one line a call. Formats lines the logger has already sanitized.
 */
import { prettyFactory } from "pino-pretty";

/** The fields an API call's line shows in its message rather than after it. */
const CALL_FIELDS = new Set(["method", "path", "status", "duration_ms"]);

type LogObject = Record<string, unknown>;

/** An API call's line as `GET /api/session 200 3.1 ms` and its other fields; any other line as it is. */
function readableCall(log: LogObject): LogObject {
  if (log.msg !== "api call" || typeof log.method !== "string") return log;
  const duration = typeof log.duration_ms === "number" ? ` ${log.duration_ms} ms` : "";
  const rest = Object.fromEntries(Object.entries(log).filter(([key]) => !CALL_FIELDS.has(key)));
  return { ...rest, msg: `${log.method} ${String(log.path ?? "")} ${String(log.status ?? "")}${duration}` };
}

/**
 * A JSON log line (already sanitized) as one readable line: local time, level, message, then the other fields
 * as compact JSON. `colors` for a terminal that shows them.
 */
export function createPrettyLine(colors: boolean): (jsonLine: string) => string {
  const pretty = prettyFactory({
    colorize: colors,
    translateTime: "SYS:HH:MM:ss.l",
    singleLine: true,
    ignore: "pid,hostname,service",
  });
  return (jsonLine) => {
    let log: unknown;
    try {
      log = JSON.parse(jsonLine);
    } catch {
      return jsonLine;
    }
    return log && typeof log === "object" ? pretty(readableCall(log as LogObject)) : jsonLine;
  };
}
