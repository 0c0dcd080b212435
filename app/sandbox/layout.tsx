import type { ReactNode } from "react";
import { ConsoleShell } from "@/components/shell/console-shell";

/** The sandbox's page sits in the console's shell (header, navigation); route handlers below are unaffected. */
export default function SandboxLayout({ children }: { children: ReactNode }) {
  return <ConsoleShell>{children}</ConsoleShell>;
}
