/**
 * report.html: the run for people, self-contained (inline style, no script, no external resource), laid
 * out to print: a summary page, then each case with its checks and the exchanges behind them. On a screen
 * under 600 px (a phone) its tables stack into one card per row, each cell under its column's name.
 */
import type { ExchangeRecord } from "@/lib/shared/contracts";
import type { ConsoleInfo, SpecificationInfo } from "../build-info";
import {
  countVerdicts,
  inCatalogueOrder,
  type CaseResult,
  type RunState,
  type Verdict,
} from "@/lib/shared/certification-contract";

function h(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const VERDICT_LABEL: Record<Verdict, string> = {
  pass: "Pass",
  fail: "Fail",
  observed: "Observed",
  not_applicable: "Not applicable",
};

const MAX_BODY_CHARS = 4000;

const STYLE = `
:root { color-scheme: light; --ink:#1b1f24; --muted:#57606a; --line:#d0d7de; --pass:#1a7f37; --fail:#cf222e; --obs:#9a6700; --na:#57606a; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); margin: 0 auto; padding: 24px; max-width: 1100px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; } h3 { font-size: 15px; margin: 0; }
.muted { color: var(--muted); }
table { border-collapse: collapse; width: 100%; margin: 8px 0; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { background: #f6f8fa; font-weight: 600; }
td.id { white-space: nowrap; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
.pair pre { margin: 0; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 12px 0; }
dl.meta dt { color: var(--muted); } dl.meta dd { margin: 0; overflow-wrap: anywhere; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
pre { background: #f6f8fa; border: 1px solid var(--line); padding: 8px; white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-weight: 600; font-size: 12px; border: 1px solid currentColor; white-space: nowrap; }
.pass { color: var(--pass); } .fail { color: var(--fail); } .observed { color: var(--obs); } .not_applicable { color: var(--na); }
.summary { display: flex; gap: 12px; margin: 12px 0; flex-wrap: wrap; }
.summary div { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 120px; }
.summary strong { display: block; font-size: 22px; }
section.case { border-top: 2px solid var(--line); padding-top: 12px; margin-top: 20px; break-inside: avoid-page; }
section.case header { display: flex; gap: 12px; align-items: baseline; flex-wrap: wrap; }
.exchange { margin: 8px 0 12px; break-inside: avoid; }
.exchange .line { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; overflow-wrap: anywhere; }
tr.failed td { background: #ffebe9; }
@media screen and (max-width: 600px) {
  body { padding: 12px; }
  h1 { font-size: 19px; }
  .pair, dl.meta { grid-template-columns: 1fr; }
  dl.meta dd { margin-bottom: 6px; }
  .summary div { min-width: 0; flex: 1 1 40%; }
  table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; width: 100%; }
  table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.stack tr { border: 1px solid var(--line); border-radius: 6px; margin: 8px 0; padding: 4px 0; }
  table.stack td { border: 0; padding: 2px 10px; }
  table.stack td:empty { display: none; }
  table.stack td[data-label]::before { content: attr(data-label); display: block; font-size: 11px; color: var(--muted); }
  td.id { white-space: normal; }
}
@page { size: A4; margin: 14mm 12mm; }
@media print {
  body { padding: 0; max-width: none; font-size: 11px; }
  pre { font-size: 9.5px; }
  h2 { break-after: avoid; }
  thead { display: table-header-group; }
  tr { break-inside: avoid; }
  .page-break { break-before: page; }
}
`;

function badge(verdict: Verdict): string {
  return `<span class="badge ${verdict}">${VERDICT_LABEL[verdict]}</span>`;
}

function shortBody(body: unknown, isText?: boolean): string {
  const text = isText && typeof body === "string" ? body : (JSON.stringify(body, null, 2) ?? "");
  return text.length > MAX_BODY_CHARS
    ? `${text.slice(0, MAX_BODY_CHARS)}\n… (${text.length - MAX_BODY_CHARS} more characters in exchanges/)`
    : text;
}

function exchangeBlock(record: ExchangeRecord): string {
  const headers = (values: Record<string, string>) =>
    Object.entries(values)
      .map(([name, value]) => `${name}: ${value}`)
      .join("\n");
  const events = record.token_events
    .map(
      (event) =>
        `<div class="muted">token event: <strong>${h(event.type)}</strong> → ${h(event.fingerprint)}${event.detail ? ` — ${h(event.detail)}` : ""}</div>`,
    )
    .join("");
  return `<div class="exchange">
<div class="line"><strong>${h(record.request.method)}</strong> ${h(record.request.url)} → <strong>${record.response.status}</strong> · ${record.duration_ms} ms · ${h(record.started_at)} · <span class="muted">exchange ${h(record.id)}</span></div>
${events}
<div class="pair"><pre>${h(headers(record.request.headers))}${record.request.body === null || record.request.body === undefined ? "" : `\n\n${h(shortBody(record.request.body, record.request.body_is_text))}`}</pre>
<pre>HTTP ${record.response.status}\n${h(headers(record.response.headers))}\n\n${h(shortBody(record.response.body, record.response.body_is_text))}</pre></div>
${record.response.schema_issues ? `<div class="fail">Schema issues: ${h(record.response.schema_issues.join("; "))}</div>` : ""}
</div>`;
}

function caseSection(result: CaseResult, exchanges: Map<string, ExchangeRecord>): string {
  const rows = result.checks
    .map(
      (check) =>
        `<tr class="${check.passed === false ? "failed" : ""}"><td data-label="Check">${h(check.name)}</td><td data-label="Expected">${h(check.expected)}</td><td data-label="Observed">${h(check.observed)}</td><td data-label="Result">${
          check.passed === true
            ? '<span class="pass">pass</span>'
            : check.passed === false
              ? '<span class="fail">fail</span>'
              : '<span class="observed">observed</span>'
        }</td></tr>`,
    )
    .join("\n");
  const ids = result.upstream_ids;
  const idLines = [
    ["transaction_id", ids.transaction_ids],
    ["external_id", ids.external_ids],
    ["X-Request-Id", ids.x_request_ids],
    ["meta.request_id", ids.meta_request_ids],
    ["token fingerprints", result.token_fingerprints],
  ]
    .filter(([, values]) => (values as string[]).length > 0)
    .map(
      ([name, values]) =>
        `<dt>${h(name as string)}</dt><dd><code>${h((values as string[]).join(", "))}</code></dd>`,
    )
    .join("");
  return `<section class="case" id="${h(result.id)}">
<header><h3>${h(result.id)} · ${h(result.title)}</h3>${badge(result.verdict)}<span class="muted">spec ${h(result.spec_sections.map((section) => `§${section}`).join(", "))}</span></header>
${result.reason ? `<p>${h(result.reason)}</p>` : ""}
${rows ? `<table class="stack"><thead><tr><th>Check</th><th>Expected</th><th>Observed</th><th>Result</th></tr></thead><tbody>${rows}</tbody></table>` : ""}
${idLines ? `<dl class="meta">${idLines}</dl>` : ""}
${result.exchange_ids
  .map((id) => exchanges.get(id))
  .filter((record): record is ExchangeRecord => Boolean(record))
  .map(exchangeBlock)
  .join("\n")}
</section>`;
}

export function buildReportHtml(
  run: RunState,
  info: { console: ConsoleInfo; specification: SpecificationInfo; kid: string },
): string {
  const exchanges = new Map(run.exchanges.map((record) => [record.id, record]));
  const counts = countVerdicts(run.results);
  const overall = counts.fail > 0 ? "fail" : "pass";
  const meta: [string, string][] = [
    ["Environment", run.environment.name],
    ["Token address ({auth_url})", run.environment.auth_url],
    ["Base address ({base_url})", run.environment.base_url],
    ["Served by", run.environment.served_by ?? run.environment.base_url],
    ["client_id", run.client_id],
    ["Operator", run.operator],
    ["Started", run.started_at],
    ["Finished", run.finished_at ?? "(not finished)"],
    ["Run id", run.id],
    ["Gift Balance Inquiry in production", run.allow_production_gift ? "allowed" : "not allowed"],
    ["Console", `${info.console.name} ${info.console.version} (commit ${info.console.commit})`],
    ["Specification SHA-256", info.specification.sha256],
    [
      "Tokens",
      run.tokens.map((token) => `${token.fingerprint} (${token.client_id}, ${token.purpose})`).join(", ") ||
        "none",
    ],
    ["Signing key (kid)", info.kid],
  ];
  // Catalogue order, not run order: TOK-09 runs last but reads beside TOK-08.
  const results = inCatalogueOrder(run.results);
  const rows = results
    .map(
      (result) =>
        `<tr><td class="id" data-label="Id"><a href="#${h(result.id)}">${h(result.id)}</a></td><td data-label="Title">${h(result.title)}</td><td data-label="Spec">${h(result.spec_sections.map((section) => `§${section}`).join(", "))}</td><td data-label="Verdict">${badge(result.verdict)}</td><td data-label="Why">${h(result.reason ?? "")}</td></tr>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Certification ${h(run.environment.name)} ${h(run.started_at)}</title>
<style>${STYLE}</style></head>
<body>
<h1>Card Services API certification — ${h(run.environment.name)} ${badge(overall)}</h1>
<p class="muted">Evidence of run ${h(run.id)}. Card numbers are masked (first 6 + last 4); secrets and tokens are redacted. The signed manifest (manifest.jws) lists the SHA-256 of this file: check it with <code>npm run verify-evidence -- bundle.zip</code>.</p>
<dl class="meta">${meta.map(([name, value]) => `<dt>${h(name)}</dt><dd>${h(value)}</dd>`).join("")}</dl>
<div class="summary">
<div><strong class="pass">${counts.pass}</strong>passed</div>
<div><strong class="fail">${counts.fail}</strong>failed</div>
<div><strong class="observed">${counts.observed}</strong>observed</div>
<div><strong class="not_applicable">${counts.not_applicable}</strong>not applicable</div>
</div>
<h2>Cases</h2>
<table class="stack"><thead><tr><th>Id</th><th>Title</th><th>Spec</th><th>Verdict</th><th>Why</th></tr></thead><tbody>
${rows}
</tbody></table>
<div class="page-break"></div>
<h2>Checks and exchanges</h2>
${results.map((result) => caseSection(result, exchanges)).join("\n")}
</body></html>
`;
}
