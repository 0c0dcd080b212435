"use client";

import { CODE_LANGUAGE_LABELS, type CodeLanguage } from "@/lib/shared/code-languages";
import type { WorkedExample as Example } from "@/lib/sandbox/docs";
import { CodeLanguagePicker, useCodeLanguage } from "@/components/exchange/code-language-picker";
import { CodeBlock } from "./code-block";

/**
 * The worked example in the language picked here or in the Code panel (one choice, remembered in this browser).
 * The server writes every language with the Code panel's generator, so the page loads no generator.
 */
export function WorkedExample({ examples }: { examples: Record<CodeLanguage, Example> }) {
  const [language, setLanguage] = useCodeLanguage();
  const example = examples[language];
  const label = CODE_LANGUAGE_LABELS[language];
  return (
    <div className="space-y-3">
      <CodeLanguagePicker language={language} onChange={setLanguage} />
      {example.token === null ? (
        <CodeBlock
          title={`Token, then Gift Balance Inquiry (${label})`}
          code={example.inquiry}
          copyLabel="Copy the example"
        />
      ) : (
        <>
          <CodeBlock
            title={`1. Request an access token (${label})`}
            code={example.token}
            copyLabel="Copy step 1"
          />
          <CodeBlock
            title={`2. Gift Balance Inquiry with ACCESS_TOKEN set (${label})`}
            code={example.inquiry}
            copyLabel="Copy step 2"
          />
        </>
      )}
    </div>
  );
}
