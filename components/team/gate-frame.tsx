import type { ReactNode } from "react";
import { BrandLink } from "@/components/shell/logo";
import { ThemeToggle } from "@/components/shell/theme-toggle";
import { Panel } from "@/components/ui/panel";

/**
 * The frame of the pages a visitor sees before the console proper (sign-in, no role, signed out): the name and
 * the theme, no navigation, no session, nothing that calls the API.
 */
export function GateFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-default">
        <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-2.5 sm:px-6">
          <BrandLink />
          <ThemeToggle />
        </div>
      </header>
      <main
        id="main"
        tabIndex={-1}
        className="flex flex-1 items-start justify-center px-4 py-12 outline-none"
      >
        <Panel as="div" className="w-full max-w-md" bodyClassName="p-6 sm:p-8">
          {children}
        </Panel>
      </main>
    </div>
  );
}

export function GateTitle({ children }: { children: ReactNode }) {
  return <h1 className="text-xl font-semibold tracking-tight text-fg">{children}</h1>;
}

export function GateText({ children }: { children: ReactNode }) {
  return <p className="mt-3 text-sm text-body">{children}</p>;
}
