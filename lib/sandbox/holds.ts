/**
 * Bounds the answers the sandbox holds back (`delay` in ./http: the slow test card, a registered client's armed
 * delay), per caller and in all. The request's handling runs inside `withHolds`, which knows its caller; a hold
 * past a bound is refused at once, and the request is then answered 429 (its caller's bound) or 503 (the
 * sandbox's) with Retry-After, whatever the handler made of the refusal. (./http's `delay` asks this module, so
 * this one builds its answer with the error shape it is given rather than import ./http.)
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { MAX_HELD, MAX_HELD_PER_CALLER } from "./limits";

export interface HoldBounds {
  perCaller: number;
  total: number;
  /** The longest a hold lasts: what Retry-After says. */
  holdMs: number;
}

/** The holds under way. A caller is a key only while it holds one, so there are never more than `total` keys. */
export class HoldGate {
  private readonly held = new Map<string, number>();
  private total = 0;

  constructor(readonly bounds: HoldBounds) {}

  /** A release function, or which bound refused. */
  acquire(caller: string): (() => void) | "caller" | "total" {
    const mine = this.held.get(caller) ?? 0;
    if (mine >= this.bounds.perCaller) return "caller";
    if (this.total >= this.bounds.total) return "total";
    this.held.set(caller, mine + 1);
    this.total += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      const left = (this.held.get(caller) ?? 1) - 1;
      if (left > 0) this.held.set(caller, left);
      else this.held.delete(caller);
    };
  }

  holding(): { total: number; callers: number } {
    return { total: this.total, callers: this.held.size };
  }
}

export function createHoldGate(holdMs: number): HoldGate {
  return new HoldGate({ perCaller: MAX_HELD_PER_CALLER, total: MAX_HELD, holdMs });
}

interface HoldScope {
  gate: HoldGate;
  caller: string;
  refused: "caller" | "total" | null;
}

const scopes = new AsyncLocalStorage<HoldScope>();

/** A hold for the request being handled: its release, or null when a bound refuses it (or none applies). */
export function acquireHold(): { release: () => void } | null | "refused" {
  const scope = scopes.getStore();
  if (!scope) return null;
  const acquired = scope.gate.acquire(scope.caller);
  if (typeof acquired === "function") return { release: acquired };
  scope.refused = acquired;
  return "refused";
}

type ErrorShape = (
  status: number,
  code: string,
  title: string,
  detail: string,
  headers: Record<string, string>,
) => Response;

/** Handles a request with its holds bounded; a refused hold makes the answer 429 or 503 at once. */
export async function withHolds(
  gate: HoldGate,
  caller: string,
  handle: () => Promise<Response>,
  errorResponse: ErrorShape,
): Promise<Response> {
  const scope: HoldScope = { gate, caller, refused: null };
  const response = await scopes.run(scope, handle);
  if (!scope.refused) return response;
  const wait = String(Math.max(1, Math.ceil(gate.bounds.holdMs / 1000)));
  if (scope.refused === "caller") {
    return errorResponse(
      429,
      "too_many_held_requests",
      "Too many held requests",
      `This caller already has ${gate.bounds.perCaller} answers held back by the sandbox; retry when one ends.`,
      { "Retry-After": wait },
    );
  }
  return errorResponse(
    503,
    "sandbox_busy",
    "Sandbox busy",
    `The sandbox already holds ${gate.bounds.total} answers back; retry when one ends.`,
    { "Retry-After": wait },
  );
}
