/**
 * Every secret a certification run sends — client secrets (and the wrong ones derived from them), access
 * tokens, tampered copies — so that nothing an upstream repeats back can reach a check, a stored run or
 * the signed bundle. Redaction itself is the console's one rule (lib/shared/redaction.ts); this only keeps
 * the exact values it must remove, in the forms an upstream may echo them.
 */
import "server-only";
import { createRedactor, MIN_EXACT_SECRET_LENGTH, type Redactor } from "@/lib/shared/redaction";

/** The forms a value takes on the wire or in an echo: as is, inside a JSON string, %-encoded, base64. */
function encodedForms(value: string): string[] {
  const bytes = Buffer.from(value, "utf8");
  return [
    value,
    JSON.stringify(value).slice(1, -1),
    encodeURIComponent(value),
    bytes.toString("base64"),
    bytes.toString("base64url"),
  ];
}

export class RunSecrets {
  private readonly values = new Set<string>();
  private cached: Redactor | undefined;

  /** Adds values (ignoring empty and too-short ones, which the redactor would not remove anyway). */
  add(...values: (string | null | undefined)[]): void {
    for (const value of values) {
      if (!value || value.length < MIN_EXACT_SECRET_LENGTH) continue;
      for (const form of encodedForms(value)) {
        if (!this.values.has(form)) {
          this.values.add(form);
          this.cached = undefined;
        }
      }
    }
  }

  list(): string[] {
    return [...this.values];
  }

  /** The console's redactor with this run's exact values. */
  redactor(): Redactor {
    this.cached ??= createRedactor(this.values);
    return this.cached;
  }

  text(value: string): string {
    return this.redactor().text(value);
  }

  /**
   * A deep copy in which every string (keys too) that holds one of the values is redacted. Other strings
   * are left as they are: exchange records are already redacted by key and masked, and a second pass over
   * clean text could only damage it (a fingerprint of 12 digits would be masked as a card).
   */
  scrub<T>(value: T): T {
    return this.walk(value, 0) as T;
  }

  private clean(text: string): string {
    for (const secret of this.values) if (text.includes(secret)) return this.text(text);
    return text;
  }

  private walk(value: unknown, depth: number): unknown {
    if (typeof value === "string") return this.clean(value);
    if (value === null || typeof value !== "object" || depth > 64) return value;
    if (Array.isArray(value)) return value.map((item) => this.walk(item, depth + 1));
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [this.clean(key), this.walk(item, depth + 1)]),
    );
  }
}
