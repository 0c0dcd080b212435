/** A program run to its end by a test, as a person at a terminal would see it. */
import { spawn, type SpawnOptions } from "node:child_process";

export interface Finished {
  /** The exit code; null when a signal ended it. */
  code: number | null;
  /** Its standard output and standard error as one text, in the order they came. */
  output: string;
}

/** Runs `command` with no input until it exits; rejects when it cannot be started. */
export function runToEnd(
  command: string,
  args: string[],
  options: Omit<SpawnOptions, "stdio"> = {},
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const collect = (chunk: Buffer) => (output += chunk.toString());
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}
