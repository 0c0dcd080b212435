// The client under every fault of ../testing/scenarios.json, with no test framework:
//   javac -d build CardApiClient.java CardApiClientTest.java && java -cp build CardApiClientTest
// The fault-injecting server is ../testing/fault-server.mjs (Node 20+): without `node` the scenarios are skipped.
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

public final class CardApiClientTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final List<String> FAILURES = new ArrayList<>();

    private CardApiClientTest() {}

    public static void main(String[] args) throws Exception {
        retryAfter();
        commandLine();
        Path testing = Files.isDirectory(Path.of("testing")) ? Path.of("testing") : Path.of("..", "testing");
        if (!Files.isRegularFile(testing.resolve("scenarios.json")) || !onPath("node")) {
            System.out.println("SKIP fault scenarios: they need node (20+) and " + testing);
        } else {
            scenarios(testing);
        }
        System.out.println(FAILURES.isEmpty() ? "OK" : "FAILED: " + FAILURES.size());
        System.exit(FAILURES.isEmpty() ? 0 : 1);
    }

    private static void check(boolean ok, String what) {
        if (!ok) FAILURES.add(what);
        if (!ok) System.out.println("  not ok: " + what);
    }

    private static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
            if (Files.isExecutable(Path.of(dir, program))) return true;
        return false;
    }

    private static void retryAfter() {
        long now = java.time.Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
        check(CardApiClient.retryAfterMs("2", now) == 2100, "Retry-After in seconds");
        check(CardApiClient.retryAfterMs("Thu, 01 Jan 2026 00:00:03 GMT", now) == 4000, "Retry-After as a date");
        check(CardApiClient.retryAfterMs("Wed, 31 Dec 2025 23:00:00 GMT", now) == 1000, "Retry-After in the past");
        check(CardApiClient.retryAfterMs(null, now) == 1000, "Retry-After absent");
        check(CardApiClient.retryAfterMs("soon", now) == 1000, "Retry-After unreadable");
        check(CardApiClient.Json.write(CardApiClient.Json.parse("{\"a\":[1.50,\"\\u00e9\\n\",null,true]}"))
                .equals("{\"a\":[1.50,\"é\\n\",null,true]}"), "JSON passes through");
        for (String broken : new String[] {"{\"a\":", "<html>", "[1,]", "{\"a\" 1}", "\"\\u12\"", "\"\\uzz12\""}) {
            try {
                CardApiClient.Json.parse(broken);
                check(false, "not JSON: " + broken);
            } catch (IllegalArgumentException expected) {
                check(true, broken);
            }
        }
    }

    private static void commandLine() {
        Ran usage = run(new String[] {"refund"}, Map.of());
        check(usage.code == 2 && usage.stderr.startsWith("error: unknown command: refund\nusage: "), "usage: exit 2");
        Ran missing = run(new String[] {"token"}, Map.of());
        check(missing.code == 1 && missing.stderr.equals("error: CARD_API_AUTH_URL is not set\n"), "config: exit 1");
    }

    record Ran(int code, String stdout, String stderr) {}

    private static Ran run(String[] argv, Map<String, String> env) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = CardApiClient.run(argv, env, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Ran(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Object control(String url, Object body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
        if (body != null) request.POST(HttpRequest.BodyPublishers.ofString(CardApiClient.Json.write(body)));
        return CardApiClient.Json.parse(HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    private static int number(Object value) {
        return Integer.parseInt(((CardApiClient.Json.Num) value).text());
    }

    private static long millis(Object call) {
        return Long.parseLong(((CardApiClient.Json.Num) CardApiClient.Json.at(call, "at")).text());
    }

    /** {@code expected} holds within {@code actual}; "*" is any value but null. */
    private static void subset(Object actual, Object expected, String path) {
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) expected).entrySet()) {
            Object got = CardApiClient.Json.at(actual, (String) entry.getKey());
            Object want = entry.getValue();
            String where = path + "." + entry.getKey();
            if ("*".equals(want)) check(got != null, where + " is present");
            else if (want instanceof Map) subset(got, want, where);
            else check(CardApiClient.Json.write(want).equals(CardApiClient.Json.write(got)),
                    where + " = " + CardApiClient.Json.write(got) + ", want " + CardApiClient.Json.write(want));
        }
    }

    private static void scenarios(Path testing) throws Exception {
        Object fixture = CardApiClient.Json.parse(Files.readString(testing.resolve("scenarios.json")));
        int timeoutMs = number(CardApiClient.Json.at(fixture, "timeout_ms"));
        Process server = new ProcessBuilder("node", testing.resolve("fault-server.mjs").toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        Path work = Files.createTempDirectory("card-api-java-");
        try {
            String line = new BufferedReader(new InputStreamReader(server.getInputStream())).readLine();
            String url = (String) CardApiClient.Json.at(CardApiClient.Json.parse(line), "url");
            String secret = "fault-secret-" + UUID.randomUUID();
            for (Object scenario : (List<?>) CardApiClient.Json.at(fixture, "scenarios"))
                scenario(scenario, url, secret, timeoutMs, work);
        } finally {
            server.getOutputStream().close();
            server.waitFor();
            try (var files = Files.walk(work)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    private static void scenario(Object scenario, String url, String secret, int timeoutMs, Path work)
            throws Exception {
        String name = (String) CardApiClient.Json.at(scenario, "name");
        System.out.println("- " + name);
        int before = FAILURES.size();
        String id = "test-" + UUID.randomUUID();
        Map<String, String> env = new HashMap<>();
        env.put("CARD_API_AUTH_URL", url);
        env.put("CARD_API_BASE_URL", url);
        env.put("CARD_API_CLIENT_ID", "fault-client");
        env.put("CARD_API_CLIENT_SECRET", secret);
        env.put("CARD_API_TIMEOUT_MS", Integer.toString(timeoutMs));
        env.put("CARD_API_TOKEN_CACHE", work.resolve(UUID.randomUUID() + ".json").toString());
        Object plan = CardApiClient.Json.at(scenario, "plan");
        control(url + "/__faults/plan", Map.of("plan", plan, "timeout_ms", timeoutMs));
        List<Integer> codes = new ArrayList<>();
        Ran last = null;
        for (Object args : (List<?>) CardApiClient.Json.at(scenario, "runs")) {
            Object pause = CardApiClient.Json.at(scenario, "pause_ms");
            if (!codes.isEmpty() && pause != null) Thread.sleep(number(pause));
            List<String> argv = new ArrayList<>();
            for (Object arg : (List<?>) args) argv.add(((String) arg).replace("{id}", id));
            last = run(argv.toArray(new String[0]), env);
            codes.add(last.code);
        }
        List<?> calls = (List<?>) control(url + "/__faults/calls", null);
        List<String> kinds = new ArrayList<>();
        for (Object call : calls) {
            String kind = (String) CardApiClient.Json.at(call, "kind");
            kinds.add(kind);
            String agent = String.valueOf(CardApiClient.Json.at(call, "user_agent"));
            check(agent.matches("card-api-client-java/\\d+\\.\\d+\\.\\d+ .*"), name + ": User-Agent " + agent);
            if (!kind.equals("token"))
                check(!CardApiClient.Json.write(call).contains(secret), name + ": the secret in a " + kind + " call");
        }
        String story = " (exit " + codes + ", calls " + kinds + ", stdout " + last.stdout.strip() + ", stderr "
                + last.stderr.strip() + ")";
        List<Integer> exits = new ArrayList<>();
        for (Object exit : (List<?>) CardApiClient.Json.at(scenario, "exit")) exits.add(number(exit));
        check(codes.equals(exits), name + ": exit codes" + story);
        check(kinds.equals(CardApiClient.Json.at(scenario, "calls")), name + ": calls" + story);
        if (FAILURES.size() > before) return;
        if (last.code != 0) check(last.stdout.isEmpty() && last.stderr.startsWith("error: "), name + ": stderr only");
        if (Boolean.TRUE.equals(CardApiClient.Json.at(scenario, "same_request_id"))) {
            Set<String> ids = new HashSet<>();
            for (Object call : calls) {
                String path = (String) CardApiClient.Json.at(call, "path");
                Object kind = CardApiClient.Json.at(call, "kind");
                if ("gift".equals(kind)) ids.add((String) CardApiClient.Json.at(call, "request_id"));
                if ("lookup".equals(kind))
                    ids.add(URLDecoder.decode(path.substring(path.lastIndexOf('/') + 1), StandardCharsets.UTF_8));
            }
            check(ids.size() == 1, name + ": one Request Id " + ids);
        }
        pairs(scenario, "renewed", (i, j, ms) -> check(!CardApiClient.Json.at(calls.get(i), "authorization")
                .equals(CardApiClient.Json.at(calls.get(j), "authorization")), name + ": a new token"));
        pairs(scenario, "gaps", (i, j, ms) -> check(millis(calls.get(j)) - millis(calls.get(i)) >= ms,
                name + ": call " + j + " at least " + ms + " ms after call " + i + story));
        pairs(scenario, "within", (i, j, ms) -> check(millis(calls.get(j)) - millis(calls.get(i)) <= timeoutMs + ms,
                name + ": call " + j + " within " + (timeoutMs + ms) + " ms of call " + i + story));
        Object stdout = CardApiClient.Json.at(scenario, "stdout");
        if (stdout != null) {
            Object expected = CardApiClient.Json.parse(CardApiClient.Json.write(stdout).replace("{id}", id));
            try {
                subset(CardApiClient.Json.parse(last.stdout), expected, name + ": stdout");
            } catch (IllegalArgumentException notJson) {
                check(false, name + ": stdout is JSON" + story);
            }
        }
        if (FAILURES.size() == before) System.out.println("  ok");
    }

    interface Pair {
        void check(int i, int j, int ms);
    }

    private static void pairs(Object scenario, String key, Pair each) {
        Object list = CardApiClient.Json.at(scenario, key);
        if (list == null) return;
        for (Object pair : (List<?>) list) {
            List<?> values = (List<?>) pair;
            each.check(number(values.get(0)), number(values.get(1)), values.size() > 2 ? number(values.get(2)) : 0);
        }
    }
}
