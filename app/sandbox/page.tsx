import type { Metadata } from "next";
import { SandboxGuide } from "@/components/sandbox/sandbox-guide";
import { consoleRoot } from "@/lib/server/root";
import { EMBEDDED_BASE_PATH } from "@/lib/sandbox/embedded";
import { DEFAULT_DEMO_SECRET } from "@/lib/sandbox/fixtures";

// Reads the server's configuration at request time (port, secret, on/off), never at build time.
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Embedded sandbox" };

export default function SandboxPage() {
  const { publicOrigins, sandbox } = consoleRoot().config;
  // The default secret is public documentation; a configured one must never reach the browser.
  const publicDemoSecret =
    !sandbox.demoSecret || sandbox.demoSecret === DEFAULT_DEMO_SECRET ? DEFAULT_DEMO_SECRET : null;
  return (
    <SandboxGuide
      enabled={sandbox.embedded}
      mountedUrl={`${publicOrigins[0]}${EMBEDDED_BASE_PATH}`}
      standaloneUrl={`http://127.0.0.1:${sandbox.port}`}
      publicDemoSecret={publicDemoSecret}
      slowResponseSeconds={sandbox.slowResponseMs / 1000}
    />
  );
}
