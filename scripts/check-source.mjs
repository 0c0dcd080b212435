#!/usr/bin/env node
// Source checks ESLint does not make: no function over MAX_FUNCTION_LINES lines of logic (JSX markup does not
// count: a page's template is not logic), and no comment or test title that cites a ticket instead of saying why.
// `node scripts/check-source.mjs` prints `path:line name (N lines)` per finding and exits 1 when any is not known.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const MAX_FUNCTION_LINES = 60;

/** Functions let past the limit (reported as known, not failing), each with its reason; none today. `file` is root-relative. */
export const KNOWN_LONG_FUNCTIONS = [];

const FUNCTION_ROOTS = ["app", "components", "lib", "scripts", "proxy.ts", "instrumentation.ts"];
const COMMENT_ROOTS = ["app", "components", "lib", "scripts", "test"];
const SOURCE_FILE = /\.(ts|tsx|mts)$/;
/** Comments are read in plain JavaScript too (scripts, configs). */
const COMMENT_FILE = /\.(ts|tsx|mts|js|mjs|cjs)$/;
const SKIPPED_DIRECTORIES = new Set(["node_modules", ".next", "test-results"]);

/**
 * A ticket reference: issue, ticket or task and a number (with or without "#"), or item(s) and a list of
 * numbers. Long digit runs are card numbers in examples, and an item after a "§" section points into the
 * API spec, which is what a comment should cite.
 */
const CITATIONS = [
  /\b(issue|ticket|task)[\s#-]*\d{1,5}(?!\d)/i,
  /(?<!§[\d.]+\s+)\bitems?\s+#?\d{1,5}(?!\d)(\s*(?:[-–,]|and)\s*\d{1,5}(?!\d))*/i,
];

/**
 * The ticket reference a text makes, if any, and where in the text.
 * @param {string} text
 * @returns {{ text: string, index: number } | undefined}
 */
export function citation(text) {
  for (const pattern of CITATIONS) {
    const match = pattern.exec(text);
    if (match) return { text: match[0], index: match.index };
  }
  return undefined;
}

/**
 * @typedef {{ line: number, name: string, lines?: number, kind: "function" | "comment" | "title" }} Finding
 * @param {string} fileName decides the parser (.tsx parses JSX)
 * @param {string} text
 * @param {{ functions?: boolean, comments?: boolean, titles?: boolean, maxLines?: number }} [checks]
 * @returns {Finding[]}
 */
export function checkSource(fileName, text, checks = { functions: true, comments: true, titles: false }) {
  const kind = fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const findings = [];
  if (checks.functions) findings.push(...longFunctions(source, checks.maxLines ?? MAX_FUNCTION_LINES));
  if (checks.comments) findings.push(...citingComments(source));
  if (checks.titles) findings.push(...citingTestTitles(source));
  return findings.sort((a, b) => a.line - b.line);
}

/** @param {ts.Node} node */
function isFunctionLike(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isConstructorDeclaration(node)
  );
}

/** @param {ts.Node} node */
function isJsDoc(node) {
  return node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode;
}

/** @param {ts.Node} node */
function isJsx(node) {
  return ts.isJsxElement(node) || ts.isJsxSelfClosingElement(node) || ts.isJsxFragment(node);
}

/** @param {ts.SourceFile} source @param {number} maxLines */
function longFunctions(source, maxLines) {
  const codeLines = linesOfCode(source);
  const findings = [];
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (isFunctionLike(node) && node.body) {
      const lines = countLogicLines(source, node, codeLines);
      if (lines > maxLines) {
        findings.push({
          kind: "function",
          line: lineOf(source, node.getStart(source)),
          name: functionName(node),
          lines,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}

/**
 * Lines holding code (not blank, not only comment), by 0-based line number, found by scanning tokens: a line
 * counts when a token other than a comment starts or runs across it.
 * @param {ts.SourceFile} source
 */
function linesOfCode(source) {
  const code = new Set();
  /** @param {ts.Node} node */
  const visit = (node) => {
    // getChildren hands JSDoc comments over as nodes: they are comments all the same.
    if (isJsDoc(node)) return;
    if (node.getChildCount(source) === 0) {
      markLines(code, source, node.getStart(source), node.getEnd());
      return;
    }
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return code;
}

/**
 * @param {Set<number>} lines
 * @param {ts.SourceFile} source
 * @param {number} start
 * @param {number} end
 */
function markLines(lines, source, start, end) {
  if (end <= start) return;
  const first = lineOf(source, start) - 1;
  const last = lineOf(source, end - 1) - 1;
  for (let line = first; line <= last; line++) lines.add(line);
}

/**
 * @param {ts.SourceFile} source
 * @param {ts.Node} fn
 * @param {Set<number>} codeLines
 */
function countLogicLines(source, fn, codeLines) {
  const jsxLines = new Set();
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (isJsx(node)) return markLines(jsxLines, source, node.getStart(source), node.getEnd());
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(fn, visit);
  const first = lineOf(source, fn.getStart(source)) - 1;
  const last = lineOf(source, fn.getEnd() - 1) - 1;
  let count = 0;
  for (let line = first; line <= last; line++) {
    if (codeLines.has(line) && !jsxLines.has(line)) count++;
  }
  return count;
}

/** @param {ts.Node} node */
function functionName(node) {
  const named = /** @type {{ name?: ts.Node }} */ (node).name;
  if (named && (ts.isIdentifier(named) || ts.isStringLiteral(named) || ts.isPrivateIdentifier(named))) {
    return named.text;
  }
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) &&
    ts.isIdentifier(parent.name)
  ) {
    return parent.name.text;
  }
  if (parent && ts.isCallExpression(parent) && ts.isIdentifier(parent.expression)) {
    return `${parent.expression.text}(…) callback`;
  }
  return "(anonymous)";
}

/**
 * Every comment once, found as the trivia around each token (a raw scan would misread JSX text such as "don't").
 * @param {ts.SourceFile} source
 */
function citingComments(source) {
  const findings = [];
  const seen = new Set();
  const text = source.text;
  /** @param {ts.CommentRange[] | undefined} ranges */
  const check = (ranges) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      const match = citation(text.slice(range.pos, range.end));
      if (match) {
        findings.push({
          kind: "comment",
          line: lineOf(source, range.pos + match.index),
          name: JSON.stringify(match.text),
        });
      }
    }
  };
  /** @param {ts.Node} node */
  const visit = (node) => {
    // A JSDoc node lies inside its comment, and JSX text has no trivia: "//" in it is text.
    if (isJsDoc(node) || node.kind === ts.SyntaxKind.JsxText) return;
    if (node.getChildCount(source) === 0) {
      check(ts.getLeadingCommentRanges(text, node.getFullStart()));
      check(ts.getTrailingCommentRanges(text, node.getEnd()));
      return;
    }
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return findings;
}

const TEST_CALLS = new Set(["it", "test", "describe"]);

/** @param {ts.CallExpression} call */
function testCallName(call) {
  let callee = call.expression;
  // it.each(...)(title), describe.skip(title), test.concurrent(title)
  if (ts.isCallExpression(callee)) callee = callee.expression;
  while (ts.isPropertyAccessExpression(callee)) callee = callee.expression;
  return ts.isIdentifier(callee) && TEST_CALLS.has(callee.text) ? callee.text : undefined;
}

/** @param {ts.SourceFile} source */
function citingTestTitles(source) {
  const findings = [];
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (ts.isCallExpression(node) && testCallName(node)) {
      const title = node.arguments[0];
      const match = title && ts.isStringLiteralLike(title) ? citation(title.text) : undefined;
      if (title && match) {
        findings.push({
          kind: "title",
          line: lineOf(source, title.getStart(source)),
          name: JSON.stringify(match.text),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}

/** @param {ts.SourceFile} source @param {number} position 1-based line of a position */
function lineOf(source, position) {
  return source.getLineAndCharacterOfPosition(position).line + 1;
}

/** @param {string} path @param {RegExp} pattern */
function* sourceFiles(path, pattern) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isFile()) {
    if (pattern.test(path)) yield path;
    return;
  }
  for (const entry of readdirSync(path).sort()) {
    if (!SKIPPED_DIRECTORIES.has(entry)) yield* sourceFiles(join(path, entry), pattern);
  }
}

/** @param {string} root */
export function checkTree(root) {
  const functionFiles = new Set(
    FUNCTION_ROOTS.flatMap((entry) => [...sourceFiles(join(root, entry), SOURCE_FILE)]),
  );
  const commentFiles = new Set(
    COMMENT_ROOTS.flatMap((entry) => [...sourceFiles(join(root, entry), COMMENT_FILE)]),
  );
  const results = [];
  for (const path of new Set([...functionFiles, ...commentFiles])) {
    const file = relative(root, path);
    const inTests = file.startsWith("test/");
    const checks = { functions: functionFiles.has(path), comments: commentFiles.has(path), titles: inTests };
    for (const finding of checkSource(path, readFileSync(path, "utf8"), checks))
      results.push({ file, ...finding });
  }
  return results;
}

/** @param {{ file: string, name: string, kind: string }} finding */
function isKnown(finding) {
  return (
    finding.kind === "function" &&
    KNOWN_LONG_FUNCTIONS.some((known) => known.file === finding.file && known.name === finding.name)
  );
}

/** @param {{ file: string, line: number, name: string, lines?: number, kind: string }} finding */
function describe(finding) {
  const what =
    finding.kind === "function"
      ? `${finding.name} (${finding.lines} lines)`
      : `${finding.kind} cites a ticket: ${finding.name}`;
  return `${finding.file}:${finding.line} ${what}`;
}

function main() {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const findings = checkTree(root);
  const known = findings.filter(isKnown);
  const failing = findings.filter((finding) => !isKnown(finding));
  for (const finding of known) console.log(`known: ${describe(finding)}`);
  for (const finding of failing) console.error(describe(finding));
  if (failing.length > 0) {
    console.error(
      `check-source: ${failing.length} finding(s); functions may have at most ${MAX_FUNCTION_LINES} lines outside JSX.`,
    );
    process.exitCode = 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
