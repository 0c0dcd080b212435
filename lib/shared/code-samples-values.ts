/**
 * Stand-ins a sample request carries where the generated code must not hold the value itself: each becomes the
 * language's read of an environment variable, or (requestId) a fresh UUID made when the code runs.
 */
export const SAMPLE_VALUE = {
  accessToken: "__CSC_ACCESS_TOKEN__",
  clientId: "__CSC_CLIENT_ID__",
  clientSecret: "__CSC_CLIENT_SECRET__",
  cardNumber: "__CSC_CARD_NUMBER__",
  requestId: "__CSC_REQUEST_ID__",
} as const;
export type SampleValue = keyof typeof SAMPLE_VALUE;

/** The environment variable each stand-in is read from. */
export const SAMPLE_VARIABLES: Record<Exclude<SampleValue, "requestId">, string> = {
  accessToken: "ACCESS_TOKEN",
  clientId: "CLIENT_ID",
  clientSecret: "CLIENT_SECRET",
  cardNumber: "CARD_NUMBER",
};

const BY_TEXT = new Map(
  (Object.entries(SAMPLE_VALUE) as Array<[SampleValue, string]>).map(([name, text]) => [text, name]),
);
const STAND_IN = /(__CSC_[A-Z_]+?__)/;

/** A literal's content split into text and stand-ins, empty text left out. */
export function splitStandIns(content: string): Array<{ text: string } | { value: SampleValue }> {
  return content
    .split(STAND_IN)
    .filter((part) => part !== "")
    .map((part) => {
      const value = BY_TEXT.get(part);
      return value ? { value } : { text: part };
    });
}

export function hasStandIn(text: string): boolean {
  return STAND_IN.test(text);
}
