/** The sandbox's own paths below its base address (DESIGN.md §5); the API's come from lib/shared/operations. */
export const SANDBOX_HOOKS_PATH = "/__sandbox/";
