/**
 * Which fault plans `npm run certify-client` runs, and how it shrinks a failing one (docs/design.md §14): every
 * family once on the first call of the baseline it applies to, then seeded random plans of one to three faults;
 * a failing plan loses faults, those on later calls first, while it still fails. Pure and seeded: one seed, one
 * sequence of plans.
 */
import {
  CALL_KINDS,
  FAULT_FAMILIES,
  type CallKind,
  type FaultFamily,
  planCode,
  type PlannedFault,
} from "./fault-families";

/** How many calls of each kind the baseline made. */
export type KindCounts = Partial<Record<CallKind, number>>;

/** mulberry32: a small seeded generator, so that `--seed` repeats a run exactly. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** The family on the first call of the first kind it applies to that the baseline made; null when none. */
function firstApplicable(family: FaultFamily, counts: KindCounts): PlannedFault | null {
  const kind = CALL_KINDS.find((item) => family.applies_to.includes(item) && (counts[item] ?? 0) > 0);
  return kind ? { kind, ordinal: 1, family: family.id } : null;
}

/** A random plan of 1–3 faults on calls the baseline made (each call takes one fault at most). */
function randomPlan(
  random: () => number,
  families: readonly FaultFamily[],
  counts: KindCounts,
): PlannedFault[] {
  const size = 1 + Math.floor(random() * 3);
  const slots: PlannedFault[] = [];
  for (let attempt = 0; slots.length < size && attempt < 20; attempt += 1) {
    const family = families[Math.floor(random() * families.length)]!;
    const kinds = family.applies_to.filter((kind) => (counts[kind] ?? 0) > 0);
    if (kinds.length === 0) continue;
    const kind = kinds[Math.floor(random() * kinds.length)]!;
    const ordinal = 1 + Math.floor(random() * (counts[kind] ?? 1));
    if (slots.some((slot) => slot.kind === kind && slot.ordinal === ordinal)) continue;
    slots.push({ kind, ordinal, family: family.id });
  }
  return slots;
}

export interface GeneratedPlans {
  /** One plan per family that applies to a call the baseline made. */
  single: PlannedFault[][];
  /** The families that apply to no call the baseline made. */
  notApplicable: string[];
  random: PlannedFault[][];
}

export function generatePlans(options: {
  counts: KindCounts;
  total: number;
  seed: number;
  families?: readonly FaultFamily[];
}): GeneratedPlans {
  const families = options.families ?? FAULT_FAMILIES;
  const single: PlannedFault[][] = [];
  const notApplicable: string[] = [];
  for (const family of families) {
    const fault = firstApplicable(family, options.counts);
    if (fault) single.push([fault]);
    else notApplicable.push(family.id);
  }
  const random: PlannedFault[][] = [];
  const next = seededRandom(options.seed);
  const seen = new Set(single.map(planCode));
  const wanted = Math.max(0, options.total - single.length);
  // Few families leave few distinct plans: a bounded number of draws, each plan once.
  for (let draw = 0; random.length < wanted && single.length > 0 && draw < wanted * 10; draw += 1) {
    const plan = randomPlan(next, families, options.counts).sort((a, b) => callOrder(a) - callOrder(b));
    const code = planCode(plan);
    if (plan.length === 0 || seen.has(code)) continue;
    seen.add(code);
    random.push(plan);
  }
  return { single, notApplicable, random };
}

/** Order of calls within a plan: by kind as the API is used (token first), then by ordinal. */
function callOrder(fault: PlannedFault): number {
  return fault.ordinal * 10 + CALL_KINDS.indexOf(fault.kind);
}

/**
 * The plans one step smaller than `faults`, in the order to try them: the fault on the latest call removed
 * first, then earlier ones.
 */
function shrinkCandidates(faults: readonly PlannedFault[]): PlannedFault[][] {
  if (faults.length <= 1) return [];
  const latestFirst = [...faults].sort((a, b) => callOrder(b) - callOrder(a));
  return latestFirst.map((removed) => faults.filter((fault) => fault !== removed));
}

/**
 * Shrinks a failing plan: tries smaller plans in order, keeps the first that still fails, and stops when none
 * does. `fails` runs the client under a plan (so shrinking costs one run per candidate tried).
 */
export async function shrinkPlan(
  faults: readonly PlannedFault[],
  fails: (plan: PlannedFault[]) => Promise<boolean>,
  maxRuns = 12,
): Promise<{ smallest: PlannedFault[]; runs: number }> {
  let smallest = [...faults];
  let runs = 0;
  for (let shrunk = true; shrunk && runs < maxRuns;) {
    shrunk = false;
    for (const candidate of shrinkCandidates(smallest)) {
      if (runs >= maxRuns) break;
      runs += 1;
      if (await fails(candidate)) {
        smallest = candidate;
        shrunk = true;
        break;
      }
    }
  }
  return { smallest, runs };
}
