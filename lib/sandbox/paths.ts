/** The sandbox's own paths below its base address (docs/design.md §5); the API's come from lib/shared/operations. */
export const SANDBOX_HOOKS_PATH = "/__sandbox/";
