import { describe, expect, it } from "vitest";
import { estimate } from "@/lib/server/support/batches";

const start = new Date("2026-01-01T00:00:00.000Z");
const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);

describe("a batch's rate and time left", () => {
  it("a finished batch's rate is its cards over its own duration, the same an hour later", () => {
    const finished = { pending: 0, running: 0, done: 18, failed: 2, lastFinishedAt: at(10) };
    expect(estimate(finished, start, at(10))).toEqual({ rate: 2, eta: 0 });
    expect(estimate(finished, start, at(3600))).toEqual({ rate: 2, eta: 0 });
  });

  it("while cards are in flight, the rate runs to now (a stall lowers it) and sets the time left", () => {
    const running = { pending: 10, running: 2, done: 20, failed: 0, lastFinishedAt: at(10) };
    expect(estimate(running, start, at(10))).toEqual({ rate: 2, eta: 6 });
    expect(estimate(running, start, at(20))).toEqual({ rate: 1, eta: 12 });
  });

  it("cannot tell before the first card or when only cards already sent remain", () => {
    expect(
      estimate({ pending: 5, running: 0, done: 0, failed: 0, lastFinishedAt: null }, start, at(5)),
    ).toEqual({
      rate: null,
      eta: null,
    });
    expect(
      estimate({ pending: 0, running: 3, done: 4, failed: 0, lastFinishedAt: at(2) }, start, at(4)),
    ).toEqual({
      rate: 1,
      eta: null,
    });
  });
});
