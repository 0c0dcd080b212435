import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { THEME_BOOT_SCRIPT } from "@/lib/client/preferences";
import { NONCE_HEADER } from "@/lib/server/http/security-headers";
import "./globals.css";

// Every page reads the request (the CSP nonce below, the session): none can be rendered at build time, and
// saying so spares the build its attempts, each of which failed and logged a warning.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Card Services Console", template: "%s · Card Services Console" },
  description: "Request tokens, run balance inquiries and compare responses against the Card Services API.",
};

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#020617" },
  ],
};

export default async function RootLayout({ children }: Readonly<{ children: ReactNode }>) {
  // The per-request CSP nonce (proxy.ts): the inline theme script runs only with it. Reading it makes every
  // page render per request, which a nonce needs.
  const nonce = (await headers()).get(NONCE_HEADER) ?? undefined;
  return (
    // The theme script sets the `dark` class before hydration, so the server's <html> differs by design.
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Browsers hide a nonce from the DOM once applied, so the client sees "" where the server wrote it. */}
        <script
          nonce={nonce}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT }}
        />
      </head>
      <body className="min-h-screen bg-page text-fg antialiased">{children}</body>
    </html>
  );
}
