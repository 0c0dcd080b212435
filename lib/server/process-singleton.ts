/**
 * One value per process, whatever bundle asks for it. Next may evaluate a module once per bundle
 * (instrumentation, proxy, each route), so a module-level `let` would give each bundle its own copy; the
 * global symbol registry gives every copy the same slot.
 */

const slots = globalThis as unknown as Record<symbol, unknown>;

function slot(name: string): symbol {
  return Symbol.for(`card-services-console.${name}`);
}

/** The process's one value named `name`, made by `create` on first use. */
export function processSingleton<T>(name: string, create: () => T): T {
  const key = slot(name);
  if (!(key in slots)) slots[key] = create();
  return slots[key] as T;
}

/** Replaces (or, with `undefined`, forgets) the value named `name`. */
export function setProcessSingleton<T>(name: string, value: T | undefined): void {
  const key = slot(name);
  if (value === undefined) delete slots[key];
  else slots[key] = value;
}

/**
 * A value that belongs to an owner (typically the configuration): a different owner (tests that
 * reconfigure) gets a fresh value, made by `create`.
 */
export function processSingletonFor<O, T>(name: string, owner: O, create: (owner: O) => T): T {
  const key = slot(name);
  const current = slots[key] as { owner: O; value: T } | undefined;
  if (current && current.owner === owner) return current.value;
  const value = create(owner);
  slots[key] = { owner, value };
  return value;
}
