/**
 * The starter clients of docs/design.md §12: one folder of real source files per language under `starter-clients/`
 * (its README.md is the contract they share), served as zips by /api/starter-clients.
 */

export interface StarterClient {
  /** The id in `/api/starter-clients/{language}.zip`. */
  language: string;
  title: string;
  /** How its README runs a command, from the unzipped folder. */
  run: string;
  /** Below the application folder: the repository, or the standalone output that ships it. */
  folder: string;
}

export const STARTER_CLIENTS: readonly StarterClient[] = [
  {
    language: "node",
    title: "JavaScript (Node 20+)",
    run: "node client.mjs <command>",
    folder: "starter-clients/node",
  },
  {
    language: "python",
    title: "Python 3.9+",
    run: "python3 client.py <command>",
    folder: "starter-clients/python",
  },
  {
    language: "java",
    title: "Java 17+",
    run: "java CardApiClient.java <command>",
    folder: "starter-clients/java",
  },
  { language: "go", title: "Go 1.19+", run: "go run . <command>", folder: "starter-clients/go" },
];

export function starterClient(language: string): StarterClient | undefined {
  return STARTER_CLIENTS.find((client) => client.language === language);
}
