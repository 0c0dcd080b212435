/**
 * An inquiry's answer brings the session with it: after a run that acquired the session's first token, the
 * header shows that token from the answer, without waiting for GET /api/session.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConsoleServer } from "@/test/support/console-server";
import { openConsolePage, type ConsolePage } from "@/test/support/pages";

let server: ConsoleServer;
let page: Page;
let session: ConsolePage;

describe("the session view after an inquiry", () => {
  beforeAll(async () => {
    session = await openConsolePage({ context: { viewport: { width: 1280, height: 900 } }, demo: true });
    ({ server, page } = session);
  });

  afterAll(async () => {
    await session?.close();
  });

  it("shows the token the run acquired from the answer itself, without waiting for the session to be read again", async () => {
    // The page and its first revalidation of the session are done before the run starts.
    await page.goto(`${server.url}/inquiry`, { waitUntil: "networkidle" });
    await page.getByRole("link", { name: "No token" }).waitFor();
    // From here on GET /api/session never answers (SWR may still revalidate it on its own schedule, say when a
    // component mounts): whatever the header shows next can only come from the inquiry's answer.
    await page.route("**/api/session", () => undefined);

    await page.getByRole("radio", { name: /^Balance Inquiry/ }).check();
    await page.getByRole("textbox", { name: "Card number" }).fill("6006491000000001");
    const answered = page.waitForResponse((candidate) => candidate.url().endsWith("/api/inquiries/balance"));
    await page.getByRole("button", { name: "Run Balance Inquiry" }).click();
    const answer = (await (await answered).json()) as {
      token_events: { type: string }[];
      session?: { token: { fingerprint: string } | null };
    };

    expect(answer.token_events.map((event) => event.type)).toEqual(["acquired"]);
    expect(answer.session?.token?.fingerprint).toMatch(/^[0-9a-f]{12}$/);
    await page.getByTestId("header-token-countdown").waitFor();
    await page.getByRole("region", { name: "Balance Inquiry" }).waitFor();
  });
});
