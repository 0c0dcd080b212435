import { GateFrame, GateText, GateTitle } from "./gate-frame";

/** The console could not tell who the visitor is (its storage did not answer): nothing is shown. */
export function UnavailableScreen() {
  return (
    <GateFrame>
      <GateTitle>The console is not available</GateTitle>
      <GateText>
        The console could not check who you are right now. Reload the page in a moment; if it persists, tell
        the console&rsquo;s administrator (GET /api/ready says what is missing).
      </GateText>
    </GateFrame>
  );
}
