/**
 * JVM flags for the tests' short-lived `java` runs (each starter-client command lasts a second or two, and
 * `java File.java` compiles the source first): the client compiler alone and the serial collector spend about
 * 40 % less CPU on such a run, on a machine where every test competes for two cores. What the program does is
 * unchanged; the command is still the one the client's README gives, with flags an integrator may add too.
 */
export const SHORT_RUN_JVM_FLAGS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"];
