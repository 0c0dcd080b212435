import { onDemand } from "@/lib/client/on-demand";

/** The code generator (ten languages' libraries) out of every page's first load, fetched when the page is idle. */
export const codeGenerator = onDemand(() => import("@/lib/client/code-export"));
