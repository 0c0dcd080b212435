// @ts-check
/**
 * Node options of the console's server process. V8 sizes its old generation from the machine's memory (4 GB on
 * a 24 GB machine): under load it lets the heap grow to several times what is live before it collects, which
 * a 50-connection soak showed as 250 MB of garbage on a 110-150 MB live heap. 384 MB keeps well over twice
 * the live heap for headroom and bounds the resident memory. NODE_OPTIONS naming a size of its own wins.
 */
export const SERVER_HEAP_MB = 384;

/** @param {Record<string, string | undefined>} [env] @returns {string[]} */
export function serverNodeFlags(env = process.env) {
  return /--max-old-space-size\b/.test(env.NODE_OPTIONS ?? "")
    ? []
    : [`--max-old-space-size=${SERVER_HEAP_MB}`];
}
