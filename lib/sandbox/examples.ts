/**
 * Example values from the sandbox's own data (lib/sandbox/fixtures), so that a request imported from an OpenAPI
 * document or the Postman collection works on its first Send: the demo client, the fully funded test card, and
 * a Request Id the sandbox always finds a transaction for.
 */
import { DEFAULT_DEMO_SECRET, EXAMPLE_REQUEST_ID } from "./fixtures";

export const SANDBOX_EXAMPLES = {
  clientId: "demo-client",
  cardNumber: "6006491000000001",
  locationId: "store-001",
  /** Postman's dynamic variable: a fresh UUID per send, as the specification asks of X-Request-Id. */
  freshRequestId: "{{$guid}}",
  lookupRequestId: EXAMPLE_REQUEST_ID,
} as const;

/** The demo secret only when it is the documented default: a secret the operator chose is not published. */
export function exampleDemoSecret(configured: string | undefined): string {
  return !configured || configured === DEFAULT_DEMO_SECRET ? DEFAULT_DEMO_SECRET : "<SANDBOX_DEMO_SECRET>";
}

export const cardRequestExample = {
  data: {
    entry_mode: "keyed",
    card_number: SANDBOX_EXAMPLES.cardNumber,
    pin_mode: "none",
    originator: { location_id: SANDBOX_EXAMPLES.locationId },
  },
};
