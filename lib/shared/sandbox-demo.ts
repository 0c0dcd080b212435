/** The location the sandbox's examples use; the inquiry form starts with it on the embedded sandbox. */
export const DEMO_LOCATION_ID = "store-001";

/** The longest originator.location_id the sandbox takes (lib/sandbox/schemas.ts): the console's forms agree. */
export const LOCATION_ID_MAX_LENGTH = 128;
