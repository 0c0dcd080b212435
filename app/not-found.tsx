import type { Metadata } from "next";
import Link from "next/link";
import { ConsoleShell } from "@/components/shell/console-shell";
import { buttonClasses } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Page not found" };

/** Any address the console has no page for: the console's own frame, with the way back (status 404). */
export default function NotFound() {
  return (
    <ConsoleShell>
      <PageHeader
        title="Page not found"
        description="The console has no page at this address. It may have been mistyped, or the link is out of date."
      />
      <div className="flex flex-wrap gap-2">
        <Link href="/" className={buttonClasses("primary")}>
          Go to the home page
        </Link>
        <Link href="/sandbox" className={buttonClasses("secondary")}>
          Sandbox reference
        </Link>
      </div>
    </ConsoleShell>
  );
}
