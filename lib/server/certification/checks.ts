/**
 * The checks a case makes, each with what the specification expects and what the upstream did, in words a
 * tester can hand to the API operator. Card numbers are masked in every text, and a run's secrets are
 * removed from it (what an upstream answers can repeat them).
 */
import { maskCardNumbersInText } from "@/lib/shared/masking";
import type { Check } from "@/lib/shared/certification-contract";

const MONEY = /^-?\d+\.\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A value as a tester reads it: strings quoted, absent fields said so. */
export function describe(value: unknown): string {
  if (value === undefined) return "(absent)";
  if (typeof value === "string") return JSON.stringify(value);
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

export class CheckList {
  readonly items: Check[] = [];

  /** `clean` removes what must not be kept (the run's redactor); card numbers are masked either way. */
  constructor(private readonly clean: (text: string) => string = maskCardNumbersInText) {}

  /** Records a check; returns whether it held. */
  add(name: string, expected: string, observed: string, passed: boolean, exchangeIds?: string[]): boolean {
    this.items.push({
      name: this.clean(name),
      expected: this.clean(maskCardNumbersInText(expected)),
      observed: this.clean(maskCardNumbersInText(observed)),
      passed,
      ...(exchangeIds && exchangeIds.length > 0 ? { exchange_ids: exchangeIds } : {}),
    });
    return passed;
  }

  /** Records what happened where the specification is silent: not judged. */
  observe(name: string, expected: string, observed: string, exchangeIds?: string[]): void {
    this.items.push({
      name: this.clean(name),
      expected: this.clean(maskCardNumbersInText(expected)),
      observed: this.clean(maskCardNumbersInText(observed)),
      passed: null,
      ...(exchangeIds && exchangeIds.length > 0 ? { exchange_ids: exchangeIds } : {}),
    });
  }

  equal(name: string, expected: unknown, observed: unknown, ids?: string[]): boolean {
    return this.add(name, describe(expected), describe(observed), Object.is(expected, observed), ids);
  }

  status(name: string, expected: number, observed: number, ids?: string[]): boolean {
    return this.add(name, `HTTP ${expected}`, `HTTP ${observed}`, observed === expected, ids);
  }

  matches(name: string, form: string, pattern: RegExp, observed: unknown, ids?: string[]): boolean {
    const passed = typeof observed === "string" && pattern.test(observed);
    return this.add(name, form, describe(observed), passed, ids);
  }

  money(name: string, observed: unknown, ids?: string[]): boolean {
    return this.matches(name, "a decimal string with two fraction digits", MONEY, observed, ids);
  }

  uuid(name: string, observed: unknown, ids?: string[]): boolean {
    return this.matches(name, "a UUID", UUID, observed, ids);
  }

  isString(name: string, observed: unknown, ids?: string[]): boolean {
    return this.add(name, "a string", describe(observed), typeof observed === "string", ids);
  }

  /** A string that says something: `expected` names what it should be. */
  text(name: string, expected: string, observed: unknown, ids?: string[]): boolean {
    return this.add(name, expected, describe(observed), typeof observed === "string" && observed !== "", ids);
  }

  isObject(name: string, observed: unknown, ids?: string[]): boolean {
    const passed = observed !== null && typeof observed === "object" && !Array.isArray(observed);
    return this.add(name, "an object", describe(observed), passed, ids);
  }

  /** Two strings that must differ (two transactions, two tokens). */
  distinct(name: string, first: unknown, second: unknown, ids?: string[]): boolean {
    const passed = typeof first === "string" && typeof second === "string" && first !== second;
    return this.add(name, "two different values", `${describe(first)} and ${describe(second)}`, passed, ids);
  }

  get failed(): Check[] {
    return this.items.filter((check) => check.passed === false);
  }
}

/** Reads a path of an unknown JSON value: `get(body, "data", "balances", "gift")`. */
export function get(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined;
    current = Object.hasOwn(current, key) ? (current as Record<string, unknown>)[key] : undefined;
  }
  return current;
}

export function dataField(body: unknown, name: string): unknown {
  return get(body, "data", name);
}

/** A money string as integer cents, or null when it is not a decimal amount. */
export function cents(value: unknown): number | null {
  if (typeof value !== "string" || !/^-?\d+(\.\d+)?$/.test(value)) return null;
  const [whole = "0", fraction = ""] = value.replace("-", "").split(".");
  const amount = Number(whole) * 100 + Number((fraction + "00").slice(0, 2));
  return value.startsWith("-") ? -amount : amount;
}
