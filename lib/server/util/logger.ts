/**
 * Structured logger (pino) that never writes a secret, token, cookie or full card number. Lines are JSON, or
 * readable lines at a terminal (LOG_FORMAT, lib/server/util/log-format.ts), formatted after sanitizing.
 * Two layers: pino's `redact` for known paths, then a last pass over every serialized line with the one
 * redaction rule (lib/shared/redaction): card numbers masked, JWTs, iron seals, secret-named fields and the exact
 * values registered with `registerSecret` removed. Tests capture lines with `captureLogs()`.
 *
 * The process's logger is made by `createConsoleLogger` in the composition root (lib/server/root), which binds
 * it to this module (`bindLogger`) wherever it is reached from, so `logger` below writes through it. Until a
 * root is bound (scripts, a unit test of one module), this module's own logger stands in.
 */
import "server-only";
import pino, { type DestinationStream, type Logger } from "pino";
import { configuredLogFormat } from "@/lib/server/util/log-format";
import { createPrettyLine } from "@/lib/server/util/pretty-log-line";
import { configuredLogLevel } from "@/lib/server/util/log-level";
import { createRedactor, isSecretKey, REDACTED, SECRET_KEYS, type Redactor } from "@/lib/shared/redaction";

const SECRET_FIELD = new RegExp(`"(${[...SECRET_KEYS].join("|")})":"(?:[^"\\\\]|\\\\.)*"`, "gi");
const SECRET_FIELD_HINT = new RegExp(`"(${[...SECRET_KEYS].join("|")})":"`, "i");

type LogFields = Record<string, unknown>;

/** `fields` with the values of secret-named keys replaced; a copy only when there is one. */
function withoutSecretKeys(fields: LogFields, depth: number): LogFields {
  let copy: LogFields | undefined;
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    let shown = value;
    if (isSecretKey(key)) shown = REDACTED;
    else if (depth > 0 && value && typeof value === "object" && !Array.isArray(value))
      shown = withoutSecretKeys(value as LogFields, depth - 1);
    if (shown !== value) (copy ??= { ...fields })[key] = shown;
  }
  return copy ?? fields;
}

/**
 * Secret-named fields at the top level and one level down, in one pass over the keys (pino's `redact` by paths
 * cost a request 50 µs for its two lines); deeper fields are caught by the line sanitizer below.
 */
const redactSecretFields = (fields: LogFields): LogFields => withoutSecretKeys(fields, 1);

export interface CapturedLogs {
  /** Every line written since capture started, exactly as it would reach stdout. */
  lines: () => string[];
  text: () => string;
  restore: () => void;
}

export interface ConsoleLogger {
  debug(fields: LogFields, message: string): void;
  info(fields: LogFields, message: string): void;
  warn(fields: LogFields, message: string): void;
  error(fields: LogFields, message: string): void;
  isLevelEnabled(level: "debug" | "info"): boolean;
  /** Exact values (session passwords, the server's client secret) that must never appear in a log line. */
  registerSecret(value: string | undefined): void;
  /** The last pass over a serialized line. */
  sanitize(line: string): string;
  /** Sends log lines to memory instead of stdout, at debug level, until `restore()`. For tests. */
  capture(): CapturedLogs;
}

function pinoLogger(sanitize: (line: string) => string, destination: DestinationStream): Logger {
  const options = {
    level: configuredLogLevel(),
    base: { service: "card-services-console" },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { log: redactSecretFields },
    hooks: { streamWrite: sanitize },
  };
  return pino(options, destination);
}

/**
 * stdout, written asynchronously in batches of up to 4 KB and at least every 250 ms: a log line must not
 * cost a request a blocking write. pino flushes what is left when the process exits.
 */
function bufferedStdout(): ReturnType<typeof pino.destination> {
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

/** stdout as readable lines: each sanitized JSON line formatted, then written as `bufferedStdout` does. */
function prettyStdout(): DestinationStream & { flushSync(): void } {
  const out = bufferedStdout();
  const pretty = createPrettyLine(process.stdout.hasColors?.() === true);
  return { write: (line: string) => void out.write(pretty(line)), flushSync: () => out.flushSync() };
}

const stdoutInConfiguredFormat = (): DestinationStream =>
  configuredLogFormat() === "pretty" ? prettyStdout() : bufferedStdout();

/** The line sanitizer, with the exact values registered so far. */
function createLineRedaction(): Pick<ConsoleLogger, "registerSecret" | "sanitize"> {
  const secrets = new Set<string>();
  let redactor: Redactor = createRedactor();
  return {
    registerSecret(value) {
      if (!value || value.length < 8 || secrets.has(value)) return;
      secrets.add(value);
      redactor = createRedactor(secrets);
    },
    sanitize(line) {
      // A cheap substring check first: most lines hold no secret-named field.
      const clean = SECRET_FIELD_HINT.test(line)
        ? line.replace(SECRET_FIELD, (_match, key: string) => `"${key}":"${REDACTED}"`)
        : line;
      return redactor.text(clean);
    },
  };
}

function createConsoleLogger(destination?: DestinationStream): ConsoleLogger {
  const { registerSecret, sanitize } = createLineRedaction();
  const base = pinoLogger(sanitize, destination ?? stdoutInConfiguredFormat());
  let active = base;
  return {
    debug: (fields, message) => active.debug(fields, message),
    info: (fields, message) => active.info(fields, message),
    warn: (fields, message) => active.warn(fields, message),
    error: (fields, message) => active.error(fields, message),
    isLevelEnabled: (level) => active.isLevelEnabled(level),
    registerSecret,
    sanitize,
    capture() {
      const lines: string[] = [];
      const captured = pinoLogger(sanitize, { write: (line: string) => void lines.push(line) });
      captured.level = "debug";
      active = captured;
      return {
        lines: () => [...lines],
        text: () => lines.join(""),
        restore: () => {
          active = base;
        },
      };
    },
  };
}

let bound: ConsoleLogger | undefined;

/** Makes `logger` (in this copy of the module) write through the root's logger. */
export function bindLogger(target: ConsoleLogger): void {
  bound = target;
}

const current = (): ConsoleLogger => (bound ??= createConsoleLogger());

/** The logger this module writes through: the process's first root adopts it, so nothing logged is lost. */
export const currentLogger = (): ConsoleLogger => current();

/** Pass fields first, then a short message. */
export const logger = {
  debug: (fields: LogFields, message: string) => current().debug(fields, message),
  info: (fields: LogFields, message: string) => current().info(fields, message),
  warn: (fields: LogFields, message: string) => current().warn(fields, message),
  error: (fields: LogFields, message: string) => current().error(fields, message),
  isLevelEnabled: (level: "debug" | "info") => current().isLevelEnabled(level),
};

export const registerSecret = (value: string | undefined): void => current().registerSecret(value);

/** The last pass over a serialized line; exported so tests can check it directly. */
export const sanitizeLogLine = (line: string): string => current().sanitize(line);

export const captureLogs = (): CapturedLogs => current().capture();
