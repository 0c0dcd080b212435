/**
 * PowerShell 7+ with Invoke-WebRequest. Values are single-quoted literals (nothing expands in them) joined with
 * `+`; control characters, which a single-quoted literal cannot escape, are `[string][char]N` between them.
 */
import { lines, type Piece } from "../code-samples-values";
import {
  commentLines,
  environmentReads,
  joinLines,
  splitRuns,
  type ExpressionSyntax,
  valueExpression,
  type Program,
} from "./program";

/** PowerShell reads the typographic single quotes as quotes too: each is doubled like `'`. */
const SINGLE_QUOTES = /['\u2018\u2019\u201a\u201b]/g;
const CONTROL = /([\u0000-\u001f\u007f])/;

/** The one PowerShell string context: '…' literals, with control characters as [char] between them. */
function powershellString(text: string): string {
  const parts = splitRuns(text, CONTROL).map((run) =>
    CONTROL.test(run)
      ? `[string][char]${run.charCodeAt(0)}`
      : `'${run.replace(SINGLE_QUOTES, (quote) => quote + quote)}'`,
  );
  if (parts.length === 0) return "''";
  return parts.length === 1 ? parts[0]! : `(${parts.join(" + ")})`;
}

const POWERSHELL: ExpressionSyntax = {
  literal: powershellString,
  uuid: "[guid]::NewGuid().ToString()",
  read: (name) => `(Get-RequiredEnv ${powershellString(name)})`,
  json: (read) => `(ConvertTo-Json -Compress -InputObject ${read})`,
  // Every operand is a string, so `+` joins text.
  join: " + ",
  empty: "''",
};

function expression(value: Piece[]): string {
  return valueExpression(value, POWERSHELL);
}

export function powershell(program: Program): string {
  return [
    "# PowerShell 7+: save as request.ps1 and run `pwsh request.ps1`.",
    ...commentLines(program).map((line) => `# ${line}`),
    ...(environmentReads(program).length > 0
      ? [
          "function Get-RequiredEnv([string]$Name) {",
          "  $value = [Environment]::GetEnvironmentVariable($Name)",
          '  if (-not $value) { throw "Set $Name in the environment first." }',
          "  return $value",
          "}",
          "",
        ]
      : []),
    "$headers = @{}",
    ...program.headers.map(([name, value]) => `$headers[${powershellString(name)}] = ${expression(value)}`),
    ...(program.body
      ? [`$body = ${joinLines(lines(program.body).map(expression), " +", "  ") || "''"}`]
      : []),
    `$response = Invoke-WebRequest -Uri ${powershellString(program.url)} -Method ${powershellString(program.method)} -Headers $headers -SkipHeaderValidation -SkipHttpErrorCheck${program.body ? " -Body ([System.Text.Encoding]::UTF8.GetBytes($body))" : ""}`,
    "$response.StatusCode",
    "$response.Content",
  ].join("\n");
}
