#!/usr/bin/env node
// Documentation checks `npm run lint` ends with:
// - every relative link and image in README.md and docs/**/*.md (and the other Markdown files of the
//   repository's own) reaches a file of the repository, and its #anchor a heading of that file;
// - every "§" reference in the source names its document: `docs/<file>.md §N` (a section that file has) or
//   `API specification §N` (the operator's document, outside the repository), or `RFC NNNN §N`.
// `node scripts/check-docs.mjs` prints `path:line what` per finding and exits 1 when there is any.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** Markdown read for links: the door, the docs, and the READMEs the repository serves or shows. */
const LINK_ROOTS = ["README.md", "docs", "test/README.md", "starter-clients"];
/** Files whose "§" references are checked: the source, its tests, and what ships beside them. */
const REF_ROOTS = [
  "app",
  "components",
  "lib",
  "scripts",
  "test",
  "starter-clients",
  "deploy",
  "db",
  "proxy.ts",
  "instrumentation.ts",
  "compose.yaml",
  ".env.example",
  "Dockerfile",
  "next.config.js",
];
const REF_FILE =
  /(\.(ts|tsx|mts|cts|js|mjs|cjs|py|java|go|md|ya?ml|json|sh|sql)|^Dockerfile|^\.env\.example)$/;
const SKIPPED_DIRECTORIES = new Set(["node_modules", ".next", "test-results", "coverage", ".data", ".git"]);

const NUMBER = String.raw`\d+(?:\.\d+)*`;
const REF = String.raw`§${NUMBER}(?:\s*[–-]\s*§?${NUMBER})?`;
/** Between two references of one list: a comma, "and", "or", and a comment's line start after a line break. A
 * document's name may break across lines as JSX text does ("API\n specification"). */
const SEPARATOR = String.raw`(?:\s*[,;]\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)(?:(?:\*|\/\/|#)\s+)?`;
const NAMED = new RegExp(
  String.raw`(docs\/[\w./-]+\.md|API\s+specification|RFC \d{1,5})\s+(${REF}(?:${SEPARATOR}${REF})*)`,
  "g",
);

/**
 * The references of `text` that name their document, each with its sections (a range's two ends).
 * @param {string} text
 * @returns {{ document: string, sections: string[], index: number, end: number }[]}
 */
export function namedSectionRefs(text) {
  return [...text.matchAll(NAMED)].map((match) => ({
    document: match[1],
    sections: [...match[2].matchAll(new RegExp(String.raw`§?(${NUMBER})`, "g"))].map((part) => part[1]),
    index: match.index,
    end: match.index + match[0].length,
  }));
}

/**
 * Every "§N" of `text` that no document name stands before (a "§" before anything but a digit, as in a
 * template that prints a section, is no reference).
 * @param {string} text
 * @returns {{ index: number }[]}
 */
export function unnamedSectionRefs(text) {
  const named = namedSectionRefs(text);
  return [...text.matchAll(/§(?=\d)/g)]
    .map((match) => ({ index: match.index }))
    .filter(({ index }) => !named.some((ref) => index >= ref.index && index < ref.end));
}

/**
 * The numbered sections of a Markdown document: its headings that start with a number (`## 4. Console…`).
 * @param {string} markdown
 */
export function sectionsOf(markdown) {
  const sections = new Set();
  for (const { text } of headingsOf(markdown)) {
    const match = /^§?\s*(\d+(?:\.\d+)*)\.?(?:\s|$)/.exec(text);
    if (match) sections.add(match[1]);
  }
  return sections;
}

/** Markdown without its fenced code blocks (lines kept, so that line numbers hold). @param {string} markdown */
function withoutFences(markdown) {
  let fence = "";
  return markdown
    .split("\n")
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (marker && (!fence || marker.startsWith(fence))) {
        fence = fence ? "" : marker;
        return "";
      }
      return fence ? "" : line;
    })
    .join("\n");
}

/** @param {string} markdown @returns {{ text: string, line: number }[]} */
function headingsOf(markdown) {
  return withoutFences(markdown)
    .split("\n")
    .flatMap((line, index) => {
      const match = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
      return match ? [{ text: match[1], line: index + 1 }] : [];
    });
}

/**
 * The anchor GitHub gives a heading: its text as shown, lower case, punctuation but "-" and "_" dropped,
 * spaces as "-".
 * @param {string} heading
 */
export function slug(heading) {
  const shown = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/&[a-z]+;|&#\d+;/gi, "");
  return shown
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor of a Markdown document: its headings' (repeats numbered as GitHub does) and its HTML ids. */
export function anchorsOf(/** @type {string} */ markdown) {
  const anchors = new Set();
  const seen = new Map();
  for (const { text } of headingsOf(markdown)) {
    const base = slug(text);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const match of withoutFences(markdown).matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g))
    anchors.add(match[1]);
  return anchors;
}

/**
 * The links of a Markdown document that are not code: `[text](target)`, images, reference definitions, and
 * HTML `href`/`src`.
 * @param {string} markdown
 * @returns {{ target: string, line: number }[]}
 */
export function linksOf(markdown) {
  const links = [];
  withoutFences(markdown)
    .split("\n")
    .forEach((raw, index) => {
      const line = raw.replace(/(`+)[^`]*?\1/g, (code) => " ".repeat(code.length));
      const patterns = [
        /!?\[(?:[^\]\\]|\\.)*\]\(\s*(?:<([^>]*)>|([^)\s]*))(?:\s+"[^"]*")?\s*\)/g,
        /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g,
        /\b(?:href|src)="([^"]*)"/g,
      ];
      for (const pattern of patterns)
        for (const match of line.matchAll(pattern))
          links.push({ target: match[1] ?? match[2] ?? "", line: index + 1 });
    });
  return links;
}

/**
 * What is wrong with one link of `file` (root-relative), or undefined when it resolves.
 * @param {string} root
 * @param {string} file
 * @param {string} target
 * @param {(path: string) => string | undefined} read a file's text, undefined when there is none
 */
export function brokenLink(root, file, target, read) {
  if (/^[a-z][a-z\d+.-]*:/i.test(target) || target.startsWith("//")) return undefined;
  const [rawPath, rawAnchor] = target.split("#", 2);
  const path = decodeURIComponent(rawPath ?? "");
  const resolved =
    path === ""
      ? file
      : relative(root, resolve(root, path.startsWith("/") ? `.${path}` : join(dirname(file), path)));
  if (resolved.startsWith(`..${sep}`) || resolved === "..") return `${target}: outside the repository`;
  const isDirectory = statSync(join(root, resolved), { throwIfNoEntry: false })?.isDirectory();
  const text = isDirectory ? "" : read(resolved);
  if (!isDirectory && text === undefined) return `${target}: no such file`;
  if (rawAnchor === undefined || rawAnchor === "" || !resolved.endsWith(".md")) return undefined;
  const anchor = decodeURIComponent(rawAnchor).toLowerCase();
  return anchorsOf(text ?? "").has(anchor) ? undefined : `${target}: no heading #${anchor} in ${resolved}`;
}

/**
 * What is wrong with the "§" references of one file's text: a reference that names no document, a document
 * the repository does not have, or a section that document does not have.
 * @param {string} text
 * @param {(path: string) => string | undefined} read
 * @returns {{ index: number, problem: string }[]}
 */
export function badSectionRefs(text, read) {
  const problems = unnamedSectionRefs(text).map(({ index }) => ({
    index,
    problem: `"${text.slice(index, index + 8).split(/\s/)[0]}" names no document: write docs/<file>.md §N or API specification §N`,
  }));
  for (const ref of namedSectionRefs(text)) {
    if (!ref.document.startsWith("docs/")) continue;
    const document = read(ref.document);
    if (document === undefined) {
      problems.push({ index: ref.index, problem: `${ref.document} does not exist` });
      continue;
    }
    const sections = sectionsOf(document);
    for (const section of ref.sections)
      if (!sections.has(section))
        problems.push({ index: ref.index, problem: `${ref.document} has no §${section}` });
  }
  return problems.sort((a, b) => a.index - b.index);
}

/** @param {string} path @param {RegExp} pattern @returns {Generator<string>} */
function* filesUnder(path, pattern) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isFile()) {
    if (pattern.test(path.split(sep).pop() ?? "")) yield path;
    return;
  }
  for (const entry of readdirSync(path).sort())
    if (!SKIPPED_DIRECTORIES.has(entry)) yield* filesUnder(join(path, entry), pattern);
}

/** @param {string} text @param {number} index */
const lineAt = (text, index) => text.slice(0, index).split("\n").length;

/**
 * Every finding of both checks in the checkout at `root`.
 * @param {string} root
 * @returns {{ file: string, line: number, problem: string }[]}
 */
export function checkDocs(root) {
  const cache = new Map();
  const read = (/** @type {string} */ path) => {
    if (!cache.has(path)) {
      const full = join(root, path);
      cache.set(
        path,
        statSync(full, { throwIfNoEntry: false })?.isFile() ? readFileSync(full, "utf8") : undefined,
      );
    }
    return cache.get(path);
  };
  const findings = [];
  for (const path of LINK_ROOTS.flatMap((entry) => [...filesUnder(join(root, entry), /\.md$/)])) {
    const file = relative(root, path);
    for (const link of linksOf(read(file) ?? "")) {
      const problem = brokenLink(root, file, link.target, read);
      if (problem) findings.push({ file, line: link.line, problem: `broken link ${problem}` });
    }
  }
  for (const path of REF_ROOTS.flatMap((entry) => [...filesUnder(join(root, entry), REF_FILE)])) {
    const file = relative(root, path);
    const text = read(file) ?? "";
    if (!text.includes("§")) continue;
    for (const { index, problem } of badSectionRefs(text, read))
      findings.push({ file, line: lineAt(text, index), problem });
  }
  return findings;
}

function main() {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const findings = checkDocs(root);
  for (const finding of findings) console.error(`${finding.file}:${finding.line} ${finding.problem}`);
  if (findings.length > 0) {
    console.error(`check-docs: ${findings.length} finding(s).`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
