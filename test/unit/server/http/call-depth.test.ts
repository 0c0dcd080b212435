/**
 * How deep an inquiry goes from its route handler to the transport: the console's frames on the stack when the
 * upstream is called, from the handler's call into lib down to the transport. A function that hands back its
 * callee's promise without awaiting it leaves no frame, so this counts at most what a reader follows: the audit
 * of the call, the inquiry, the token and its one retry, the send with its timeout, the transport.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as balanceRoute from "@/app/api/inquiries/balance/route";
import { getEmbeddedSandbox } from "@/lib/server/root/embedded-sandbox";
import { call, configure, CookieJar, saveDemoCredentials } from "../support";

const CARD = "6006491000000001";
const stackLimit = Error.stackTraceLimit;

beforeEach(() => {
  configure();
  getEmbeddedSandbox().reset();
  Error.stackTraceLimit = 200;
});

afterEach(() => {
  Error.stackTraceLimit = stackLimit;
  vi.restoreAllMocks();
});

/** The stack's frames in the console's server code, innermost first, up to the inquiry route's handler. */
function serverFrames(stack: string): string[] {
  const frames = stack
    .split("\n")
    .filter((line) => line.trimStart().startsWith("at "))
    .filter((line) => /lib[/\\]server[/\\]/.test(line))
    .map((line) => line.trim());
  const handler = frames.findIndex((line) => /inquiry-route\.ts/.test(line));
  return handler === -1 ? frames : frames.slice(0, handler);
}

describe("a balance inquiry's way to the upstream", () => {
  it("passes at most 6 frames from the route handler to the transport", async () => {
    const jar = new CookieJar();
    await saveDemoCredentials(jar);
    const body = { card_number: CARD, location_id: "L1" };
    // A first call gets the token, so that the measured one goes straight to the card API.
    await call(balanceRoute.POST, "POST", "/api/inquiries/balance", { body }, jar);
    const sandbox = getEmbeddedSandbox();
    const handle = sandbox.handle.bind(sandbox);
    const stacks: string[] = [];
    vi.spyOn(sandbox, "handle").mockImplementation((request: Request) => {
      stacks.push(new Error("where").stack ?? "");
      return handle(request);
    });

    const response = await call(balanceRoute.POST, "POST", "/api/inquiries/balance", { body }, jar);

    expect(response.status).toBe(200);
    expect(stacks).toHaveLength(1);
    // The embedded sandbox is reached through the metered and the in-process transport, and the closure that
    // picks the sandbox (lib/server/card-api/environments): those three are the transport.
    const chain = serverFrames(stacks[0] ?? "").filter(
      (line) => !/card-api[/\\](transport|environments)\.ts|metrics[/\\]upstream\.ts/.test(line),
    );
    expect(chain.length + 1, chain.join("\n")).toBeLessThanOrEqual(6);
  });
});
