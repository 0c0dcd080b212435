/**
 * The generator's templates. C# and PowerShell have no runtime on CI, so their programs are read back by a
 * strict lexer of each language's literals: over hostile values (test/support/hostile-cases.ts) every literal
 * must close where the generator meant it to, the code around the literals must be the template's own (no word
 * from a value), and the values must come back whole from the literals. The other languages are run
 * (test/languages/code-samples/hostile-values.test.ts).
 */
import { describe, expect, it } from "vitest";
import { exchangeToCode } from "@/lib/client/code-export";
import {
  BEARER,
  CODE_LANGUAGES,
  FRESH_UUID,
  codeSample,
  jsonValue,
  read,
  tokenSampleRequest,
  type SampleRequest,
} from "@/lib/shared/code-samples";
import { ENV, MARKER, hostileCases } from "@/test/support/hostile-cases";
import { giftExchange, tokenExchange } from "../client/fixtures";

const ORIGIN = "http://localhost:3000/sandbox";
const TOKEN_URL = `${ORIGIN}/reporting/v1/auth/token`;

const giftRequest: SampleRequest = {
  method: "POST",
  url: `${ORIGIN}/transaction/v1/gift/balance-inquiry`,
  headers: [
    ["Authorization", BEARER],
    ["Content-Type", "application/json; charset=utf-8"],
    ["X-Request-Id", FRESH_UUID],
  ],
  body: jsonValue(
    { data: { entry_mode: "keyed", card_number: "", originator: { location_id: "s" } } },
    (key) => (key === "card_number" ? read("CARD_NUMBER", "json") : null),
  ),
};

/** How each language reads a variable and makes a UUID. */
const READS: Record<(typeof CODE_LANGUAGES)[number], { env: (name: string) => string; uuid: string }> = {
  shell: { env: (name) => `\${${name}:?`, uuid: "/proc/sys/kernel/random/uuid" },
  javascript: { env: (name) => `env('${name}')`, uuid: "crypto.randomUUID()" },
  node: { env: (name) => `env('${name}')`, uuid: "crypto.randomUUID()" },
  python: { env: (name) => `env('${name}')`, uuid: "uuid.uuid4()" },
  java: { env: (name) => `env("${name}")`, uuid: "UUID.randomUUID()" },
  go: { env: (name) => `env("${name}")`, uuid: "newRequestID()" },
  csharp: { env: (name) => `Env("${name}")`, uuid: "Guid.NewGuid()" },
  php: { env: (name) => `env("${name}")`, uuid: "request_id()" },
  ruby: { env: (name) => `env("${name}")`, uuid: "SecureRandom.uuid" },
  powershell: { env: (name) => `(Get-RequiredEnv '${name}')`, uuid: "[guid]::NewGuid()" },
};

describe("code samples in every language", () => {
  for (const language of CODE_LANGUAGES) {
    it(`${language}: a Gift Balance Inquiry reads ACCESS_TOKEN and CARD_NUMBER and makes a fresh Request Id`, () => {
      const code = codeSample(language, giftRequest);
      expect(code).toContain(READS[language].env("ACCESS_TOKEN"));
      expect(code).toContain(READS[language].env("CARD_NUMBER"));
      expect(code).toContain(READS[language].uuid);
      expect(code).toContain("localhost:3000");
    });

    it(`${language}: the token request reads CLIENT_ID and CLIENT_SECRET and writes in neither`, () => {
      const code = codeSample(language, tokenSampleRequest(TOKEN_URL));
      expect(code).not.toMatch(/demo-client|demo-secret/);
      expect(code).toContain(READS[language].env("CLIENT_ID"));
      expect(code).toContain(READS[language].env("CLIENT_SECRET"));
      expect(code).not.toContain("ACCESS_TOKEN");
    });

    it(`${language}: an address no HTTP client can send gives no code`, () => {
      const code = codeSample(language, { ...giftRequest, url: "file:///etc/passwd" });
      expect(code).not.toContain("/etc/passwd");
    });
  }

  it("JavaScript is fetch and Node is Node's own http module: two programs, as their names say", () => {
    const fetchCode = codeSample("javascript", giftRequest);
    const nodeCode = codeSample("node", giftRequest);
    expect(fetchCode).toContain("await fetch(");
    expect(fetchCode).not.toContain("node:http");
    expect(nodeCode).toContain('import http from "node:http";');
    expect(nodeCode).not.toContain("fetch(");
  });

  it("Java is a whole program with a main method", () => {
    expect(codeSample("java", giftRequest)).toMatch(
      /public class Main \{\n {2}public static void main\(String\[\] args\) throws Exception \{/,
    );
  });

  it("a header that is not a valid HTTP header is left out and said so", () => {
    const code = codeSample("python", {
      ...giftRequest,
      headers: [
        ["@/etc/passwd", "x"],
        ["X-Ok", "a\r\nB: c"],
      ],
    });
    expect(code).not.toContain("add_header('@");
    expect(code).not.toContain("add_header('X-Ok'");
    expect(code).toMatch(/# Left out a header/);
  });
});

interface Lexed {
  /** The code with each literal (and each comment) taken out. */
  skeleton: string;
  /** Runs of literals joined by `+` only, decoded. */
  strings: string[];
}

const CSHARP_ESCAPES: Record<string, string> = { "\\": "\\", '"': '"', n: "\n", r: "\r", t: "\t", "0": "\0" };

/** C#'s comments and string literals, strictly: a regular literal must close on its line, escapes be known. */
function lexCsharp(code: string): Lexed {
  let skeleton = "";
  const strings: string[] = [];
  let joinable = false;
  for (let at = 0; at < code.length;) {
    if (code.startsWith("//", at)) {
      at = code.indexOf("\n", at) < 0 ? code.length : code.indexOf("\n", at);
      continue;
    }
    const interpolated = code.startsWith('$"', at);
    if (code[at] === '"' || interpolated) {
      at += interpolated ? 2 : 1;
      let value = "";
      while (code[at] !== '"') {
        if (at >= code.length || code[at] === "\n") throw new Error(`unclosed literal at ${at}`);
        if (code[at] === "\\") {
          const next = code[at + 1]!;
          if (next === "u") {
            value += String.fromCharCode(parseInt(code.slice(at + 2, at + 6), 16));
            at += 6;
            continue;
          }
          if (!(next in CSHARP_ESCAPES)) throw new Error(`unknown escape \\${next}`);
          value += CSHARP_ESCAPES[next];
          at += 2;
          continue;
        }
        value += code[at];
        at += 1;
      }
      at += 1;
      if (joinable) strings[strings.length - 1] += value;
      else strings.push(value);
      joinable = false;
      skeleton += interpolated ? " $S " : " S ";
      const rest = /^\s*\+\s*(?=")/.exec(code.slice(at));
      if (rest) {
        joinable = true;
        at += rest[0].length;
      }
      continue;
    }
    if (code[at] === "'" || code.startsWith('@"', at))
      throw new Error(`a literal the generator never writes at ${at}`);
    skeleton += code[at];
    at += 1;
  }
  return { skeleton, strings };
}

const POWERSHELL_QUOTE = /['\u2018\u2019\u201a\u201b]/;

/** PowerShell's comments, '…' literals (a quote doubled is one) and [string][char]N, strictly. */
function lexPowershell(code: string): Lexed {
  let skeleton = "";
  const strings: string[] = [];
  let joinable = false;
  const push = (value: string) => {
    if (joinable) strings[strings.length - 1] += value;
    else strings.push(value);
    skeleton += " S ";
  };
  for (let at = 0; at < code.length;) {
    const char = code[at]!;
    const charLiteral = /^\[string\]\[char\](\d+)/.exec(code.slice(at));
    if (char === "#" && (at === 0 || code[at - 1] === "\n")) {
      at = code.indexOf("\n", at) < 0 ? code.length : code.indexOf("\n", at);
      continue;
    } else if (POWERSHELL_QUOTE.test(char)) {
      let value = "";
      at += 1;
      for (;;) {
        if (at >= code.length) throw new Error("unclosed literal");
        if (POWERSHELL_QUOTE.test(code[at]!)) {
          if (POWERSHELL_QUOTE.test(code[at + 1] ?? "")) {
            value += code[at];
            at += 2;
            continue;
          }
          break;
        }
        value += code[at];
        at += 1;
      }
      at += 1;
      push(value);
    } else if (charLiteral) {
      at += charLiteral[0].length;
      push(String.fromCharCode(Number(charLiteral[1])));
    } else if (char === '"') {
      // Only the template's own message: "Set $Name in the environment first."
      const end = code.indexOf('"', at + 1);
      expect(code.slice(at, end + 1)).toBe('"Set $Name in the environment first."');
      skeleton += " D ";
      at = end + 1;
      continue;
    } else if (
      char === "(" &&
      strings.length > 0 &&
      /^\(\s*(['\u2018-\u201b]|\[string\])/.test(code.slice(at))
    ) {
      // A literal with control characters is wrapped in parentheses: part of the same run.
      at += 1;
      continue;
    } else {
      skeleton += char;
      at += 1;
      joinable = false;
      continue;
    }
    const rest = /^\)?\s*\+\s*(?=\(?['\u2018-\u201b[])/.exec(code.slice(at));
    joinable = Boolean(rest);
    if (rest) at += rest[0].length;
    else if (code[at] === ")") at += 1;
  }
  return { skeleton, strings };
}

const words = (skeleton: string) => new Set(skeleton.match(/[A-Za-z_$][\w$-]*/g) ?? []);

describe.each([
  ["csharp", lexCsharp],
  ["powershell", lexPowershell],
] as const)("%s, read back by a strict lexer over hostile values", (language, lex) => {
  const template = new Set<string>();
  for (const code of [
    exchangeToCode(giftExchange(), language),
    exchangeToCode(tokenExchange(), language),
    codeSample(language, giftRequest),
  ])
    for (const word of words(lex(code).skeleton)) template.add(word);

  it("every literal closes where it should, the code around it is the template's, the values come back whole", () => {
    const cases = hostileCases("http://127.0.0.1:1", language);
    for (const testCase of cases) {
      const code = exchangeToCode(testCase.exchange, language, testCase.options);
      const label = `case ${testCase.id} (${testCase.kind})`;
      const { skeleton, strings } = lex(code);
      expect(skeleton, label).not.toContain(MARKER);
      for (const word of words(skeleton)) expect(template.has(word), `${label}: ${word}`).toBe(true);
      const all = strings.join("\u0000");
      for (const [name, value] of testCase.exchange.request.headers
        ? Object.entries(testCase.exchange.request.headers)
        : [])
        if (!/^(authorization|x-request-id)$/i.test(name)) expect(all, `${label}: ${name}`).toContain(value);
      expect(strings, label).toContain(testCase.exchange.request.url);
      const body = testCase.expected.body;
      // Each line of the body is one run of literals, apart from where the program puts what it reads.
      const read = [
        ENV.CARD_NUMBER,
        ENV.CLIENT_ID,
        JSON.stringify(ENV.CLIENT_ID),
        JSON.stringify(ENV.CLIENT_SECRET),
      ];
      for (const line of body.split(/(?<=\n)/))
        if (!read.some((value) => line.includes(value))) expect(all, label).toContain(line);
    }
  });
});
