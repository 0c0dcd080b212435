/** The location the sandbox's examples use; the inquiry form starts with it on the embedded sandbox. */
export const DEMO_LOCATION_ID = "store-001";
