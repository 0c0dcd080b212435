/** The tests' short-lived `java` runs: flags that make them cheaper, and a Java source compiled once. */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * JVM flags for the tests' short-lived `java` runs (each starter-client command lasts a second or two, and
 * `java File.java` compiles the source first): the client compiler alone and the serial collector spend about
 * 40 % less CPU on such a run, on a machine where every test competes for two cores. What the program does is
 * unchanged; the command is still the one the client's README gives, with flags an integrator may add too.
 */
export const SHORT_RUN_JVM_FLAGS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"];

/** The `javac` on PATH, resolved, with its modification time: a different JDK compiles again. */
function javacIdentity(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir, "javac");
    if (!existsSync(candidate)) continue;
    try {
      const stat = statSync(candidate);
      return `${candidate}:${stat.mtimeMs}`;
    } catch {
      // not readable: the next one on PATH
    }
  }
  return undefined;
}

/**
 * The class folder of a single-file Java program compiled with `javac`, once per source text and JDK: the
 * folder under the temporary directory is named by their hash, so each file of a run (and the next run) that
 * compiles the same source finds it there instead of compiling it again; `java File.java` would compile it
 * anew on every command. Undefined when there is no `javac`. Written to a folder of its own and renamed into
 * place, so workers compiling at once never see half a folder.
 */
export function compiledJava(sourceFile: string): string | undefined {
  const javac = javacIdentity();
  if (!javac) return undefined;
  const hash = createHash("sha256").update(javac).update("\0").update(readFileSync(sourceFile)).digest("hex");
  const classes = path.join(os.tmpdir(), `console-tests-java-${hash.slice(0, 16)}`);
  if (existsSync(classes)) return classes;
  const building = mkdtempSync(`${classes}-building-`);
  const javacFlags = SHORT_RUN_JVM_FLAGS.map((flag) => `-J${flag}`);
  const compiled = spawnSync("javac", [...javacFlags, "-d", building, sourceFile], { encoding: "utf8" });
  if (compiled.status !== 0) {
    rmSync(building, { recursive: true, force: true });
    throw new Error(`javac ${sourceFile} failed:\n${compiled.stderr}`);
  }
  try {
    renameSync(building, classes);
  } catch {
    // Another worker put the same classes in place first.
    rmSync(building, { recursive: true, force: true });
  }
  return classes;
}
