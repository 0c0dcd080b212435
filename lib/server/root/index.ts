/** The composition root (./console-root) and the process's one instance of it (./process). */
import "server-only";
export {
  createConsoleRoot,
  createProcessParts,
  type ConsoleRoot,
  type ProcessParts,
  type RootOptions,
  type Services,
} from "./console-root";
export {
  consoleRoot,
  getConfig,
  getServices,
  installConsoleRoot,
  resetConsoleRoot,
  setConfigForTests,
  setEmbeddedSandboxForTests,
} from "./process";
