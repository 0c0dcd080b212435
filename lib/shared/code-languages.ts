/** The languages of the one code generator (./code-samples.ts), apart from it: pickers need no generator. */
export const CODE_LANGUAGES = [
  "shell",
  "javascript",
  "node",
  "python",
  "java",
  "go",
  "csharp",
  "php",
  "ruby",
  "powershell",
] as const;
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

export const CODE_LANGUAGE_LABELS: Record<CodeLanguage, string> = {
  shell: "cURL",
  javascript: "JavaScript (fetch)",
  node: "Node.js (http)",
  python: "Python",
  java: "Java",
  go: "Go",
  csharp: "C#",
  php: "PHP",
  ruby: "Ruby",
  powershell: "PowerShell",
};

/** The languages whose sample can fetch its own token first ("with token request"). */
export const TOKEN_PRELUDE_LANGUAGES: ReadonlySet<CodeLanguage> = new Set(["shell", "javascript", "node"]);
