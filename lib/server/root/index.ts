/** The composition root (./console-root) and the process's one instance of it (./process). */
import "server-only";
export { createConsoleRoot, type ConsoleRoot, type RootOptions } from "./console-root";
export { createProcessParts, type ProcessParts } from "./process-parts";
export {
  consoleRoot,
  getConfig,
  getServices,
  installConsoleRoot,
  resetConsoleRoot,
  runDetachedInquiry,
  setConfigForTests,
  setEmbeddedSandboxForTests,
} from "./process";
export type { Services } from "./storage";
