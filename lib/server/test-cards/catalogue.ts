/**
 * Which cards a user may try in an environment (docs/design.md §5): on `embedded` the sandbox's TEST_CARDS; on
 * `sandbox` the operator's CERTIFICATION_PROFILE cards, read as a certification run reads them (each call, so a
 * changed file shows without a restart); elsewhere none. Nothing is kept per caller.
 */
import "server-only";
import type { ServerConfig } from "@/lib/server/config";
import { readProfileFile, ProfileFileError } from "@/lib/server/config/certification";
import { ApiError } from "@/lib/server/util/errors";
import { TEST_CARDS, type TestCard } from "@/lib/sandbox/fixtures";
import type { EnvironmentName } from "@/lib/shared/contracts";
import { maskCardNumber } from "@/lib/shared/masking";
import type { TestCardEntry } from "@/lib/shared/test-cards";

interface TestCardWithNumber extends TestCardEntry {
  cardNumber: string;
}

function sandboxLabel(card: TestCard): string {
  switch (card.behaviour) {
    case "active":
      return Object.values(card.purses).some((cents) => cents > 0)
        ? "active, purses funded"
        : "active, every purse 0.00";
    case "inactive":
      return "inactive: declined";
    case "server_error":
      return "answers 500";
    case "slow":
      return "slow: no answer in time";
    case "not_json":
      return "answers HTML, not JSON";
    case "rate_limited":
      return "answers 429, Retry-After 2";
  }
}

function embeddedCards(): TestCardWithNumber[] {
  return TEST_CARDS.map((card, index) => ({
    id: `sandbox-${index + 1}`,
    label: sandboxLabel(card),
    behaviour: card.behaviour,
    masked: maskCardNumber(card.cardNumber),
    cardNumber: card.cardNumber,
  }));
}

function profileCards(file: string): TestCardWithNumber[] {
  let cards;
  try {
    cards = readProfileFile(file).cards;
  } catch (error) {
    if (!(error instanceof ProfileFileError)) throw error;
    // Checked at start; a file broken since then offers no cards rather than failing the inquiry page.
    return [];
  }
  const entries: TestCardWithNumber[] = [
    {
      id: "profile-active",
      label: "active (the operator's card)",
      behaviour: "active",
      masked: maskCardNumber(cards.active),
      cardNumber: cards.active,
    },
  ];
  if (cards.declined) {
    entries.push({
      id: "profile-declined",
      label: "declined (the operator's card)",
      behaviour: "declined",
      masked: maskCardNumber(cards.declined),
      cardNumber: cards.declined,
    });
  }
  return entries;
}

function cardsFor(config: ServerConfig, environment: EnvironmentName): TestCardWithNumber[] {
  const configured = config.environments.find((candidate) => candidate.name === environment);
  if (!configured) return [];
  if (configured.transport === "embedded") return embeddedCards();
  if (environment === "sandbox" && config.certification.profilePath) {
    return profileCards(config.certification.profilePath);
  }
  return [];
}

/** The cards of `environment`, masked. */
export function listTestCards(config: ServerConfig, environment: EnvironmentName): TestCardEntry[] {
  return cardsFor(config, environment).map(({ cardNumber: _number, ...entry }) => entry);
}

/** One card's full number; 404 `not_found` for an id the environment does not offer. */
export function testCardNumber(config: ServerConfig, environment: EnvironmentName, id: string): string {
  const card = cardsFor(config, environment).find((candidate) => candidate.id === id);
  if (!card) throw new ApiError("not_found", `No test card ${id} on ${environment}.`);
  return card.cardNumber;
}
