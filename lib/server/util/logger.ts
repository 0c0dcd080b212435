/**
 * Structured JSON logger (pino) that never writes a secret, token, cookie or full card number.
 * Two layers: pino's `redact` for known paths, then a last pass over every serialized line with the one
 * redaction rule (lib/shared/redaction): card numbers masked, JWTs, iron seals, secret-named fields and the exact
 * values registered with `registerSecret` removed. Tests capture lines with `captureLogs()`.
 */
import "server-only";
import pino, { type DestinationStream, type Logger } from "pino";
import { configuredLogLevel } from "@/lib/server/config/log-level";
import { processSingleton } from "@/lib/server/process-singleton";
import { createRedactor, REDACTED, SECRET_KEYS, type Redactor } from "@/lib/shared/redaction";

export { REDACTED } from "@/lib/shared/redaction";

/** Two levels by path (cheap for pino); deeper fields are caught by the line sanitizer below. */
const REDACT_PATHS = [...SECRET_KEYS].flatMap((key) => [`["${key}"]`, `*["${key}"]`]);

const SECRET_FIELD = new RegExp(`"(${[...SECRET_KEYS].join("|")})":"(?:[^"\\\\]|\\\\.)*"`, "gi");
const SECRET_FIELD_HINT = new RegExp(`"(${[...SECRET_KEYS].join("|")})":"`, "i");

/** Exact values registered by any bundle of the process, and the redactor that removes them. */
function lineRedaction(): { secrets: Set<string>; redactor: Redactor } {
  return processSingleton("logger-secrets", () => ({
    secrets: new Set<string>(),
    redactor: createRedactor(),
  }));
}

/** Exact values (session passwords, the server's client secret) that must never appear in a log line. */
export function registerSecret(value: string | undefined): void {
  const state = lineRedaction();
  if (!value || value.length < 8 || state.secrets.has(value)) return;
  state.secrets.add(value);
  state.redactor = createRedactor(state.secrets);
}

/** The last pass over a serialized line; exported so tests can check it directly. */
export function sanitizeLogLine(line: string): string {
  // A cheap substring check first: most lines hold no secret-named field.
  const clean = SECRET_FIELD_HINT.test(line)
    ? line.replace(SECRET_FIELD, (_match, key: string) => `"${key}":"${REDACTED}"`)
    : line;
  return lineRedaction().redactor.text(clean);
}

function createLogger(destination?: DestinationStream): Logger {
  const options = {
    level: configuredLogLevel(),
    base: { service: "card-services-console" },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    hooks: { streamWrite: sanitizeLogLine },
  };
  return pino(options, destination ?? bufferedStdout());
}

/**
 * stdout, written asynchronously in batches of up to 4 KB and at least every 250 ms: a log line must not
 * cost a request a blocking write. pino flushes what is left when the process exits.
 */
function bufferedStdout(): DestinationStream {
  const stream = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => {
    try {
      stream.flush();
    } catch {
      // A flush while a write is in flight is retried on the next tick of the interval.
    }
  }, 250).unref();
  return stream;
}

function loggers(): { active: Logger; base: Logger } {
  return processSingleton("logger", () => {
    const base = createLogger();
    return { active: base, base };
  });
}

type LogFields = Record<string, unknown>;

/** The application logger. Pass fields first, then a short message. */
export const logger = {
  debug: (fields: LogFields, message: string) => loggers().active.debug(fields, message),
  info: (fields: LogFields, message: string) => loggers().active.info(fields, message),
  warn: (fields: LogFields, message: string) => loggers().active.warn(fields, message),
  error: (fields: LogFields, message: string) => loggers().active.error(fields, message),
  isLevelEnabled: (level: "debug" | "info") => loggers().active.isLevelEnabled(level),
};

export interface CapturedLogs {
  /** Every line written since capture started, exactly as it would reach stdout. */
  lines: () => string[];
  text: () => string;
  restore: () => void;
}

/** Sends log lines to memory instead of stdout, at debug level, until `restore()`. For tests. */
export function captureLogs(): CapturedLogs {
  const lines: string[] = [];
  const state = loggers();
  const captured = createLogger({ write: (line: string) => void lines.push(line) });
  captured.level = "debug";
  state.active = captured;
  return {
    lines: () => [...lines],
    text: () => lines.join(""),
    restore: () => {
      state.active = state.base;
    },
  };
}
