import type { Metadata } from "next";
import { SandboxGuide } from "@/components/sandbox/sandbox-guide";
import { EMBEDDED_BASE_PATH, isEmbeddedSandboxEnabled } from "@/lib/sandbox/embedded";
import { DEFAULT_DEMO_SECRET } from "@/lib/sandbox/fixtures";

// Reads the server's configuration at request time (port, secret, on/off), never at build time.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Embedded sandbox" };

export default function SandboxPage() {
  const configuredSecret = process.env.SANDBOX_DEMO_SECRET;
  // The default secret is public documentation; a configured one must never reach the browser.
  const publicDemoSecret =
    !configuredSecret || configuredSecret === DEFAULT_DEMO_SECRET ? DEFAULT_DEMO_SECRET : null;
  const slowMs = Number(process.env.SANDBOX_SLOW_MS);
  return (
    <SandboxGuide
      enabled={isEmbeddedSandboxEnabled()}
      mountedUrl={`http://localhost:${process.env.PORT || "3000"}${EMBEDDED_BASE_PATH}`}
      standaloneUrl={`http://127.0.0.1:${process.env.SANDBOX_PORT || "4010"}`}
      publicDemoSecret={publicDemoSecret}
      slowResponseSeconds={Number.isFinite(slowMs) && slowMs > 0 ? slowMs / 1000 : 30}
    />
  );
}
