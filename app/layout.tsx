import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Card Services Console", template: "%s · Card Services Console" },
  description: "Request tokens, run balance inquiries and compare responses against the Card Services API.",
};

export default function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-white text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        {children}
      </body>
    </html>
  );
}
