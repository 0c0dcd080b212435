import { describe, expect, it } from "vitest";
import {
  BEARER_STAND_IN,
  CODE_LANGUAGES,
  SAMPLE_VALUE,
  codeSample,
  tokenSampleRequest,
  type SampleRequest,
} from "@/lib/shared/code-samples";

const ORIGIN = "http://localhost:3000/sandbox";
const TOKEN_URL = `${ORIGIN}/reporting/v1/auth/token`;

const giftRequest: SampleRequest = {
  method: "POST",
  url: `${ORIGIN}/transaction/v1/gift/balance-inquiry`,
  headers: [
    ["Authorization", BEARER_STAND_IN],
    ["Content-Type", "application/json; charset=utf-8"],
    ["X-Request-Id", SAMPLE_VALUE.requestId],
  ],
  body: JSON.stringify(
    { data: { entry_mode: "keyed", card_number: SAMPLE_VALUE.cardNumber, originator: { location_id: "s" } } },
    null,
    2,
  ),
};

/** How each language reads a variable and makes a UUID, so a sample is checked for the expression itself. */
const READS: Record<(typeof CODE_LANGUAGES)[number], { env: (name: string) => string; uuid: string }> = {
  shell: { env: (name) => `\${${name}:?`, uuid: "/proc/sys/kernel/random/uuid" },
  javascript: { env: (name) => `env("${name}")`, uuid: "crypto.randomUUID()" },
  node: { env: (name) => `env("${name}")`, uuid: "crypto.randomUUID()" },
  python: { env: (name) => `os.environ["${name}"]`, uuid: "uuid.uuid4()" },
  java: { env: (name) => `env("${name}")`, uuid: "UUID.randomUUID()" },
  go: { env: (name) => `env("${name}")`, uuid: "newRequestID()" },
  csharp: { env: (name) => `Env("${name}")`, uuid: "Guid.NewGuid()" },
  php: { env: (name) => `env('${name}')`, uuid: "request_id()" },
  ruby: { env: (name) => `ENV.fetch("${name}")`, uuid: "SecureRandom.uuid" },
  powershell: { env: (name) => `(Get-RequiredEnv '${name}')`, uuid: "[guid]::NewGuid()" },
};

describe("code samples in every language", () => {
  for (const language of CODE_LANGUAGES) {
    it(`${language}: a Gift Balance Inquiry reads ACCESS_TOKEN and CARD_NUMBER and makes a fresh Request Id`, () => {
      const code = codeSample(language, giftRequest);
      expect(code).not.toContain("__CSC_");
      expect(code).toContain(READS[language].env("ACCESS_TOKEN"));
      expect(code).toContain(READS[language].env("CARD_NUMBER"));
      expect(code).toContain(READS[language].uuid);
      expect(code).toContain(giftRequest.url.replace("http://", "").split("/")[0]);
    });

    it(`${language}: the token request reads CLIENT_ID and CLIENT_SECRET and writes in neither`, () => {
      const code = codeSample(language, tokenSampleRequest(TOKEN_URL));
      expect(code).not.toContain("__CSC_");
      expect(code).not.toMatch(/demo-client|demo-secret/);
      expect(code).toContain(READS[language].env("CLIENT_ID"));
      expect(code).toContain(READS[language].env("CLIENT_SECRET"));
      expect(code).not.toContain("ACCESS_TOKEN");
    });
  }

  it("C# sends a media type StringContent accepts (no parameters: it adds the charset itself)", () => {
    const code = codeSample("csharp", giftRequest);
    expect(code).toContain('System.Text.Encoding.UTF8, "application/json")');
  });

  it("Java turns the whole body, variables joined in, into bytes (not only its last literal)", () => {
    const code = codeSample("java", tokenSampleRequest(TOKEN_URL));
    expect(code).toMatch(/body\.write\(\("\{.*"\)\.getBytes\(/);
  });

  it("Java is a whole program with a main method", () => {
    const code = codeSample("java", giftRequest);
    expect(code).toMatch(
      /public class Main \{\n {2}public static void main\(String\[\] args\) throws Exception \{/,
    );
  });
});
