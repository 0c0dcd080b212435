// The files each starter client IS, by language: the one list that both the console's zips
// (lib/server/starter-clients/service.ts, /api/starter-clients/{language}.zip) and the standalone build
// (scripts/standalone.mjs) ship. Nothing else in a client's folder leaves it: whatever running a client leaves there
// (a .env.local with a secret, a token cache under any name, bytecode, a binary) is never in a zip or an image.
//
// Adding or renaming a file of a client? List it here (paths below the client's folder, `/` between folders); a
// listed file that is missing fails the standalone build and makes that client's zip a 404, so the list cannot
// silently drift from the folder. Plain JS so that the build script can import it without TypeScript.

/** @type {Readonly<Record<string, readonly string[]>>} */
export const STARTER_CLIENT_FILES = Object.freeze({
  node: ["README.md", ".env.example", "client.mjs", "client.test.mjs"],
  python: ["README.md", ".env.example", "client.py", "test_client.py"],
  java: ["README.md", ".env.example", "CardApiClient.java", "CardApiClientTest.java"],
  go: [
    "README.md",
    ".env.example",
    "go.mod",
    "main.go",
    "main_test.go",
    "cardapi/client.go",
    "cardapi/client_test.go",
  ],
});

/**
 * The fault server and its scenarios that every client's own tests run against (paths below starter-clients/):
 * each zip ships them as its `testing/` folder, so a downloaded client's tests run as they do here.
 */
export const STARTER_CLIENT_TESTING_FILES = Object.freeze([
  "testing/fault-server.mjs",
  "testing/scenarios.json",
]);

/** Files of starter-clients/ itself that ship beside the clients' folders (their shared contract, the tests' server). */
export const STARTER_CLIENTS_SHARED_FILES = Object.freeze(["README.md", ...STARTER_CLIENT_TESTING_FILES]);
