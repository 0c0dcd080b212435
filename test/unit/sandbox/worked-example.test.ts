import { describe, expect, it } from "vitest";
import { codeSample, CODE_LANGUAGES, tokenSampleRequest } from "@/lib/shared/code-samples";
import { exampleGiftRequest, workedExample, workedExamples } from "@/lib/sandbox/docs";

const BASE = "http://localhost:3000/sandbox";

describe("the /sandbox page's worked example", () => {
  it("is the Code panel's generator's code, in each of its languages", () => {
    const examples = workedExamples(BASE, "demo-secret");
    expect(Object.keys(examples)).toEqual([...CODE_LANGUAGES]);
    const tokenUrl = `${BASE}/reporting/v1/auth/token`;
    const notes = ["CLIENT_ID=demo-client; CLIENT_SECRET: demo-secret"];
    expect(examples.shell).toEqual({
      token: null,
      inquiry: codeSample("shell", exampleGiftRequest(BASE), { tokenUrl, notes }),
    });
    expect(examples.python).toEqual({
      token: codeSample("python", tokenSampleRequest(tokenUrl), { notes }),
      inquiry: codeSample("python", exampleGiftRequest(BASE)),
    });
  });

  it("sends the approved test card to the gift address with a fresh Request Id per run", () => {
    const { inquiry } = workedExample("shell", BASE, "demo-secret");
    expect(inquiry).toContain(`${BASE}/transaction/v1/gift/balance-inquiry`);
    expect(inquiry).toContain('"card_number": "6006491000000001"');
    expect(inquiry).toContain("/proc/sys/kernel/random/uuid");
  });
});
