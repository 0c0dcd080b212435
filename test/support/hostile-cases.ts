/**
 * Exchange records whose every field holds hostile text, with what a program generated from each must send
 * (test/languages/code-samples/hostile-values.test.ts). Made by fast-check from a fixed seed
 * (CODE_SAMPLES_SEED changes it), so a failure names a case that can be made again.
 */
import fc from "fast-check";
import type { CodeExportOptions } from "@/lib/client/code-export";
import type { CodeLanguage } from "@/lib/shared/code-languages";
import type { ExchangeRecord } from "@/lib/shared/contracts";

/** The file every payload tries to create. */
export const MARKER = "pwned-marker";

/** The runner's environment: hostile too, since the program must send it as data. */
export const ENV = {
  ACCESS_TOKEN: `tok'"$(touch ${MARKER})\`touch ${MARKER}\`#{\`touch ${MARKER}\`}\${x}\\`,
  /** What the echoing server answers to a token request (the shell reads it without a JSON parser). */
  PRELUDE_TOKEN: `pre$(touch ${MARKER})'\`touch ${MARKER}\`#{x}`,
  CLIENT_ID: `id"'\\$(touch ${MARKER})#{x}`,
  CLIENT_SECRET: `s\\"'\${x}\`touch ${MARKER}\``,
  CARD_NUMBER: "6006491000000019",
};

const FULL_CARD = "6006491000000001";
const MASKED_CARD = "600649******0001";
const MASK = /\d{6}\*{2,9}\d{4}|\*{12,19}/g;

/** Attempts to break out of a literal, an interpolation or a comment in each language, and the old stand-ins. */
const PAYLOADS = [
  `$(touch ${MARKER})`,
  `\`touch ${MARKER}\``,
  `'; touch ${MARKER}; '`,
  `"; touch ${MARKER}; "`,
  `'"$(touch ${MARKER})"'`,
  `#{File.write('${MARKER}', '')}`,
  `#{\`touch ${MARKER}\`}`,
  `" + File.write("${MARKER}", "") + "`,
  `\${require('fs').writeFileSync('${MARKER}', '')}`,
  `\` + (await import("node:fs")).writeFileSync("${MARKER}", "") + \``,
  `' + open('${MARKER}', 'w').name + '`,
  `''' + open('${MARKER}', 'w').name + '''`,
  `""" + open("${MARKER}", "w").name + """`,
  `" . touch("${MARKER}") . "`,
  `{\${touch('${MARKER}')}}`,
  `?><?php touch('${MARKER}'); ?>`,
  `" + new java.io.File("${MARKER}").createNewFile() + "`,
  `\\u0022 + new java.io.File(\\u0022${MARKER}\\u0022).createNewFile() + \\u0022`,
  `" + func() string { os.Create("${MARKER}"); return "" }() + "`,
  `$(New-Item ${MARKER})`,
  `' + (New-Item ${MARKER}) + '`,
  `\\`,
  `\\\\`,
  `\\'`,
  `\\"`,
  `\\x22`,
  `%s%n%x`,
  `*/`,
  `/*`,
  `#`,
  `'`,
  `"`,
  "`",
  `$`,
  `\${`,
  `#{`,
  `}`,
  `__CSC_CLIENT_SECRET__`,
  `__CSC_ACCESS_TOKEN__`,
  `__CSC_CARD_NUMBER__`,
  `__CSC_REQUEST_ID__`,
  `$CLIENT_SECRET`,
  `\${CLIENT_SECRET}`,
  `#{ENV["CLIENT_SECRET"]}`,
  `%CLIENT_SECRET%`,
  `JSON`,
  `EOF`,
];
/** Only in bodies and paths: beyond ASCII, typographic quotes PowerShell reads as quotes, line breaks. */
const TEXT_ONLY = [
  `“ + (New-Item ${MARKER}) + ”`,
  "‘ + (New-Item pwned) + ’",
  "é",
  "😀",
  "\u2028",
  "\u00a0",
  "\ufeff",
  "\r",
  "\n",
  "\r\n",
  "\t",
  "\u0001",
  "\u001b",
  "\u007f",
];

const join = (parts: string[]) => parts.join("");
const headerValue = fc
  .array(fc.oneof(fc.constantFrom(...PAYLOADS), fc.string({ maxLength: 6 })), { minLength: 1, maxLength: 5 })
  .map(join)
  // HTTP drops a header value's surrounding blanks.
  .map((value) => value.trim() || "x");
const textValue = fc
  .array(
    fc.oneof(
      fc.constantFrom(...PAYLOADS, ...TEXT_ONLY),
      fc.string({ unit: "grapheme", maxLength: 6 }),
      fc.string({ unit: "binary-ascii", maxLength: 6 }),
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map(join)
  .map((value) => value.replaceAll("\0", ""));

/** About 10 KB of every payload. */
const TEN_KB = [...join(Array.from({ length: 40 }, () => [...PAYLOADS, ...TEXT_ONLY].join("")))]
  .slice(0, 10_000)
  .join("");
const HEADER_TEN_KB = join(Array.from({ length: 40 }, () => PAYLOADS.join("")))
  .slice(0, 10_240)
  .trim();

type CaseKind = "token" | "balance" | "gift" | "lookup" | "free-form";

export interface HostileCase {
  id: string;
  kind: CaseKind;
  exchange: ExchangeRecord;
  options: CodeExportOptions;
  recordedRequestId: string;
  expected: {
    method: string;
    path: string;
    /** Lower-case names. */
    headers: Array<[string, string]>;
    body: string;
  };
}

interface Draw {
  kind: CaseKind;
  values: string[];
  header: string;
  unmask: boolean;
  withToken: boolean;
  freeForm: "json-masked" | "json-plain" | "text";
  big: boolean;
}

const draw = (kind: CaseKind): fc.Arbitrary<Draw> =>
  fc.record({
    kind: fc.constant(kind),
    values: fc.array(textValue, { minLength: 4, maxLength: 4 }),
    header: headerValue,
    unmask: fc.boolean(),
    withToken: fc.boolean(),
    freeForm: fc.constantFrom("json-masked" as const, "json-plain" as const, "text" as const),
    big: fc.constant(false),
  });

const COUNTS: Record<CaseKind, number> = { token: 4, balance: 5, gift: 5, lookup: 5, "free-form": 9 };
const RECORDED_REQUEST_ID = "6b4b7b38-1d47-4a0e-9f1e-1d0f3e0c6a11";

function caseSeed(language: CodeLanguage): number {
  const base = Number(process.env.CODE_SAMPLES_SEED ?? 40);
  return base + [...language].reduce((sum, char) => sum + char.charCodeAt(0), 0);
}

/** About 28 cases for `language`, their requests to `${base}/<language>-<id>/…`. */
export function hostileCases(base: string, language: CodeLanguage): HostileCase[] {
  const seed = caseSeed(language);
  const draws = (Object.keys(COUNTS) as CaseKind[]).flatMap((kind, index) => {
    const drawn = fc.sample(draw(kind), { numRuns: COUNTS[kind], seed: seed + index });
    // The first case of each kind carries 10 KB values.
    return drawn.map((item, position) => ({ ...item, big: position === 0 }));
  });
  return draws.map((item, index) => buildCase(`c${index}`, `${base}/${language}-c${index}`, item));
}

function cardFor(item: Draw): string {
  return item.unmask ? FULL_CARD : ENV.CARD_NUMBER;
}

function buildCase(id: string, prefix: string, item: Draw): HostileCase {
  const [a, b, c, d] = (item.big ? [TEN_KB, ...item.values.slice(1)] : item.values) as [
    string,
    string,
    string,
    string,
  ];
  const header = item.big ? HEADER_TEN_KB : item.header;
  const custom: Array<[string, string]> = [
    ["X-Hostile", header],
    ["X-Stand-In", "__CSC_CLIENT_SECRET__ Bearer __CSC_ACCESS_TOKEN__"],
  ];
  const options: CodeExportOptions = {
    fullCardNumber: item.unmask ? FULL_CARD : null,
    token: item.withToken && item.kind !== "token" ? { url: `${prefix}/token` } : null,
  };
  const base = {
    id,
    environment: "embedded",
    started_at: "2026-01-01T10:00:00.000Z",
    duration_ms: 1,
    response: { status: 200, headers: {}, body: null },
    token_events: [],
  };
  const headers = (extra: Array<[string, string]>) =>
    Object.fromEntries([["Authorization", "Bearer [redacted]"], ...extra, ...custom]);
  const lower = (pairs: Array<[string, string]>) =>
    pairs.map(([name, value]) => [name.toLowerCase(), value] as [string, string]);

  if (item.kind === "token") {
    const url = `${prefix}/reporting/v1/auth/token`;
    const sent = { client_id: a, client_secret: "[redacted]", grant_type: b };
    const expected = { client_id: ENV.CLIENT_ID, client_secret: ENV.CLIENT_SECRET, grant_type: b };
    const extra: Array<[string, string]> = [["Content-Type", "application/json"]];
    return {
      id,
      kind: "token",
      options: {},
      recordedRequestId: "",
      exchange: {
        ...base,
        operation: "token",
        request: { method: "POST", url, headers: Object.fromEntries([...extra, ...custom]), body: sent },
      } as ExchangeRecord,
      expected: {
        method: "POST",
        path: new URL(url).pathname,
        headers: lower([...extra, ...custom]),
        body: JSON.stringify(expected, null, 2),
      },
    };
  }

  if (item.kind === "lookup") {
    const url = `${prefix}/transaction/v1/transactions/request-id/${encodeURIComponent(item.big ? [...TEN_KB].slice(0, 2000).join("") : a)}`;
    const extra: Array<[string, string]> = [["Accept", "application/json"]];
    return {
      id,
      kind: "lookup",
      options,
      recordedRequestId: "",
      exchange: {
        ...base,
        operation: "transaction_lookup",
        request: { method: "GET", url, headers: headers(extra), body: null },
      } as ExchangeRecord,
      expected: {
        method: "GET",
        path: url.slice(url.indexOf("/", 8)),
        headers: lower([...extra, ...custom]),
        body: "",
      },
    };
  }

  const gift = item.kind === "gift" || (item.kind === "free-form" && item.unmask);
  const operation = gift ? "gift_balance_inquiry" : "balance_inquiry";
  const url = `${prefix}/transaction/v1/${gift ? "gift/" : ""}balance-inquiry`;
  const data = (card: string) => ({
    data: { entry_mode: a, card_number: card, pin_mode: b, originator: { location_id: c } },
    extra: [d, 1.5, true, null, {}],
  });
  const extra: Array<[string, string]> = [
    ["Content-Type", "application/json"],
    ...(gift ? ([["X-Request-Id", RECORDED_REQUEST_ID]] as Array<[string, string]>) : []),
  ];
  let sent: unknown = data(MASKED_CARD);
  let body = JSON.stringify(data(cardFor(item)), null, 2);
  if (item.kind === "free-form") {
    if (item.freeForm === "json-masked") sent = JSON.stringify(data(MASKED_CARD));
    if (item.freeForm === "json-plain") {
      sent = JSON.stringify(data(FULL_CARD)).replace(FULL_CARD, "0000");
      body = sent as string;
    }
    if (item.freeForm === "text") {
      sent = `not JSON ${a} card ${MASKED_CARD} ${b}`;
      body = (sent as string).replace(MASK, cardFor(item));
    }
  }
  return {
    id,
    kind: item.kind,
    options,
    recordedRequestId: RECORDED_REQUEST_ID,
    exchange: {
      ...base,
      operation,
      ...(item.kind === "free-form" ? { free_form: true } : {}),
      request: { method: "POST", url, headers: headers(extra), body: sent },
    } as ExchangeRecord,
    expected: {
      method: "POST",
      path: new URL(url).pathname,
      headers: lower([...extra.filter(([name]) => name !== "X-Request-Id"), ...custom]),
      body,
    },
  };
}
