/** VERIFY.md: how anyone checks a bundle, with or without the console. */
export function buildVerifyMd(kid: string): string {
  return `# Verifying this evidence bundle

This bundle was written by the Card Services Console. \`manifest.json\` describes the run and lists the
SHA-256 of every other file; \`manifest.jws\` is a JWS (compact serialization, EdDSA / Ed25519) whose
payload is exactly the bytes of \`manifest.json\`; \`public-key.jwk\` is the public key (kid \`${kid}\`).

## With the console

    npm run verify-evidence -- bundle.zip
    npm run verify-evidence -- bundle.zip --key trusted-public-key.jwk

Exit 0 when every hash and the signature check out; otherwise it lists what is wrong (exit 1), or, with
\`--key\`, exit 3 when nothing was changed but another key signed it. Pass \`--key\` with the
key published by the console that ran the certification (\`GET /api/certification/public-key\`): the key
inside the bundle proves that nothing changed since signing, not who signed.

## By hand

1. \`sha256sum -c SHA256SUMS\` checks every file listed there (all but \`SHA256SUMS\` and \`manifest.jws\`).
2. Check the signature of \`manifest.jws\` with \`public-key.jwk\` (any JOSE library: alg EdDSA) and that its
   payload equals \`manifest.json\` byte for byte.
3. Check that each entry of \`files\` in \`manifest.json\` matches the SHA-256 of that file.

Card numbers are masked (first 6 + last 4) and secrets and tokens are redacted in every file.
`;
}
