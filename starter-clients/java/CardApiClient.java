// Card Services API starter client: Java 17+, standard library only. See README.md.
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** A client of the Card Services API that keeps every duty the specification puts on a client. */
public final class CardApiClient {
    static final String TOKEN_PATH = "/reporting/v1/auth/token";
    static final String GIFT_PATH = "/transaction/v1/gift/balance-inquiry";
    static final String BALANCE_PATH = "/transaction/v1/balance-inquiry";
    static final String LOOKUP_PATH = "/transaction/v1/transactions/request-id/";
    public static final String DEFAULT_LOCATION = "store-001";
    // Renew this long before expiry, so a token never expires between the check and the call.
    static final long RENEW_MARGIN_MS = 60_000;
    static final long MAX_RETRY_AFTER_MS = 60_000;
    static final DateTimeFormatter ISO_MILLIS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    /** No answer in time, or none at all: the caller decides what that means. */
    public static final class NoAnswerException extends Exception {
        public final boolean timedOut;
        public final String url;

        NoAnswerException(String message, boolean timedOut, String url) {
            super(message);
            this.timedOut = timedOut;
            this.url = url;
        }
    }

    public static final class ConfigException extends Exception {
        ConfigException(String message) {
            super(message);
        }
    }

    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    /** The configuration, from environment variables only (the secret stays out of the code). */
    public record Config(String authUrl, String baseUrl, String clientId, String clientSecret, long timeoutMs,
            String cacheFile) {
        public static Config fromEnv(Map<String, String> env) throws ConfigException {
            String timeout = env.getOrDefault("CARD_API_TIMEOUT_MS", "");
            if (timeout.isEmpty()) timeout = "10000";
            if (!timeout.matches("[1-9][0-9]{0,17}"))
                throw new ConfigException("CARD_API_TIMEOUT_MS must be a positive integer");
            String cache = env.getOrDefault("CARD_API_TOKEN_CACHE", "");
            return new Config(need(env, "CARD_API_AUTH_URL").replaceAll("/+$", ""),
                    need(env, "CARD_API_BASE_URL").replaceAll("/+$", ""), need(env, "CARD_API_CLIENT_ID"),
                    need(env, "CARD_API_CLIENT_SECRET"), Long.parseLong(timeout),
                    cache.isEmpty() ? ".card-api-token.json" : cache);
        }

        private static String need(Map<String, String> env, String name) throws ConfigException {
            String value = env.get(name);
            if (value == null || value.isEmpty()) throw new ConfigException(name + " is not set");
            return value;
        }
    }

    /** An HTTP answer: status (null when none came), body parsed as JSON, stage "token" when that failed. */
    public record Answer(Integer status, String retryAfter, Object body, String stage) {}

    /** The cached token, as the cache file holds it. */
    public record Token(String authUrl, String clientId, String accessToken, String tokenType, String scope,
            Instant expiresAt) {
        boolean fresh() {
            return expiresAt.toEpochMilli() - System.currentTimeMillis() > RENEW_MARGIN_MS;
        }
    }

    /** Either a token or the token request's error answer. */
    public record TokenResult(Token token, Answer error) {}

    /** A Gift Balance Inquiry's outcome; when it timed out, {@code lookup} is what its Request Id found. */
    public record GiftResult(String requestId, Answer answer, boolean timedOut, Answer lookup) {}

    private final Config config;
    private final HttpClient http = HttpClient.newHttpClient();
    private Token token;

    public CardApiClient(Config config) {
        this.config = config;
    }

    Answer send(HttpRequest.Builder request, String url) throws NoAnswerException {
        String origin = url.replaceAll("^([a-zA-Z][a-zA-Z0-9+.-]*://[^/?#]*).*$", "$1");
        try {
            HttpResponse<String> response = http.send(
                    request.uri(URI.create(url)).timeout(Duration.ofMillis(config.timeoutMs())).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            String retryAfter = response.headers().firstValue("Retry-After").orElse(null);
            return new Answer(response.statusCode(), retryAfter, parseBody(response.body()), null);
        } catch (HttpTimeoutException error) {
            throw new NoAnswerException(origin + ": no answer within " + config.timeoutMs() + " ms", true, url);
        } catch (IOException | IllegalArgumentException error) {
            String reason = error.getMessage() == null ? error.getClass().getSimpleName() : error.getMessage();
            throw new NoAnswerException(origin + ": " + reason, false, url);
        } catch (InterruptedException error) {
            Thread.currentThread().interrupt();
            throw new NoAnswerException(origin + ": interrupted", false, url);
        }
    }

    static Object parseBody(String text) {
        if (text.isEmpty()) return null;
        try {
            return Json.parse(text);
        } catch (IllegalArgumentException notJson) {
            return text;
        }
    }

    Token readCache() {
        try {
            Object parsed = Json.parse(Files.readString(Path.of(config.cacheFile()), StandardCharsets.UTF_8));
            if (!(parsed instanceof Map<?, ?> cached) || !(cached.get("access_token") instanceof String access))
                return null;
            Token found = new Token(String.valueOf(cached.get("auth_url")), String.valueOf(cached.get("client_id")),
                    access, String.valueOf(cached.get("token_type")), String.valueOf(cached.get("scope")),
                    Instant.parse(String.valueOf(cached.get("expires_at"))));
            boolean ours = found.authUrl().equals(config.authUrl()) && found.clientId().equals(config.clientId());
            return ours && found.fresh() ? found : null;
        } catch (IOException | RuntimeException unreadable) {
            return null;
        }
    }

    void writeCache(Token next) throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("auth_url", next.authUrl());
        json.put("client_id", next.clientId());
        json.put("access_token", next.accessToken());
        json.put("token_type", next.tokenType());
        json.put("scope", next.scope());
        json.put("expires_at", ISO_MILLIS.format(next.expiresAt()));
        Path file = Path.of(config.cacheFile()).toAbsolutePath();
        Path temporary = Path.of(file + "." + ProcessHandle.current().pid() + ".tmp");
        Files.deleteIfExists(temporary);
        boolean posix = file.getFileSystem().supportedFileAttributeViews().contains("posix");
        Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rw-------");
        if (posix) Files.createFile(temporary, PosixFilePermissions.asFileAttribute(ownerOnly));
        Files.writeString(temporary, Json.write(json), StandardCharsets.UTF_8);
        if (posix) Files.setPosixFilePermissions(temporary, ownerOnly);
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** API specification §4.1: the only request that carries the secret. */
    public TokenResult requestToken() throws NoAnswerException, IOException {
        Map<String, Object> credentials = new LinkedHashMap<>();
        credentials.put("client_id", config.clientId());
        credentials.put("client_secret", config.clientSecret());
        credentials.put("grant_type", "client_credentials");
        String url = config.authUrl() + TOKEN_PATH;
        Answer answer = send(HttpRequest.newBuilder()
                .header("Content-Type", "application/json; charset=utf-8").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(credentials), StandardCharsets.UTF_8)), url);
        Object attributes = Json.at(answer.body(), "data", "attributes");
        Object access = Json.at(attributes, "access_token");
        if (answer.status() != 200 || !(access instanceof String accessToken))
            return new TokenResult(null, answer);
        Object expiresIn = Json.at(attributes, "expires_in");
        long lifetimeMs = expiresIn instanceof Json.Number n ? new BigDecimal(n.text()).movePointRight(3).longValue() : 0;
        Object type = Json.at(attributes, "token_type");
        Object scope = Json.at(attributes, "scope");
        Token next = new Token(config.authUrl(), config.clientId(), accessToken,
                type instanceof String t ? t : "Bearer", scope instanceof String s ? s : "",
                Instant.ofEpochMilli(System.currentTimeMillis() + lifetimeMs));
        writeCache(next);
        token = next;
        return new TokenResult(next, null);
    }

    /** API specification §5.7: the token in memory, else the cached one, else a new one. */
    public TokenResult getToken() throws NoAnswerException, IOException {
        if (token != null && token.fresh()) return new TokenResult(token, null);
        Token cached = readCache();
        if (cached != null) {
            token = cached;
            return new TokenResult(cached, null);
        }
        return requestToken();
    }

    Answer attempt(String method, String path, Object body, String requestId) throws NoAnswerException {
        HttpRequest.Builder request = HttpRequest.newBuilder()
                .header("Authorization", "Bearer " + token.accessToken()).header("Accept", "application/json");
        if (body != null) request.header("Content-Type", "application/json");
        if (requestId != null) request.header("X-Request-Id", requestId);
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(Json.write(body), StandardCharsets.UTF_8));
        return send(request, config.baseUrl() + path);
    }

    /** One API call with the duties around it: 401 → one new token and once more; 429 → wait, once more. */
    public Answer call(String method, String path, Object body, String requestId)
            throws NoAnswerException, IOException {
        TokenResult got = getToken();
        if (got.error() != null) return tokenStage(got.error());
        Answer answer = attempt(method, path, body, requestId);
        if (answer.status() == 401) {
            got = requestToken();
            if (got.error() != null) return tokenStage(got.error());
            answer = attempt(method, path, body, requestId);
        }
        if (answer.status() == 429) {
            try {
                Thread.sleep(retryAfterMs(answer.retryAfter(), System.currentTimeMillis()));
            } catch (InterruptedException error) {
                Thread.currentThread().interrupt();
            }
            answer = attempt(method, path, body, requestId);
        }
        return answer;
    }

    private static Answer tokenStage(Answer error) {
        return new Answer(error.status(), error.retryAfter(), error.body(), "token");
    }

    /** How long a 429 asks to wait: seconds or an HTTP date; 1 s when unreadable, never more than a minute. */
    static long retryAfterMs(String header, long now) {
        long ms = 1000;
        if (header != null && header.strip().matches("[0-9]{1,9}")) ms = Long.parseLong(header.strip()) * 1000;
        else if (header != null) {
            try {
                ms = ZonedDateTime.parse(header.strip(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant()
                        .toEpochMilli() - now;
            } catch (RuntimeException unreadable) {
                ms = 1000;
            }
        }
        return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
    }

    public Answer balance(String card, String location) throws NoAnswerException, IOException {
        return call("POST", BALANCE_PATH, cardBody(card, location), null);
    }

    public Answer lookup(String requestId) throws NoAnswerException, IOException {
        String encoded = URLEncoder.encode(requestId, StandardCharsets.UTF_8).replace("+", "%20");
        return call("GET", LOOKUP_PATH + encoded, null, null);
    }

    /** API specification §4.3: a fresh Request Id per inquiry; API specification §4.3.3: no answer in time → look it up before anything else. */
    public GiftResult gift(String card, String location, String requestId) throws NoAnswerException, IOException {
        String id = requestId != null ? requestId : UUID.randomUUID().toString();
        try {
            return new GiftResult(id, call("POST", GIFT_PATH, cardBody(card, location), id), false, null);
        } catch (NoAnswerException error) {
            // Only the inquiry itself may have been recorded without our hearing of it; a token request may not.
            if (!error.timedOut || !error.url.endsWith(GIFT_PATH)) throw error;
            return new GiftResult(id, new Answer(null, null, null, null), true, lookup(id));
        }
    }

    static Map<String, Object> cardBody(String card, String location) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("entry_mode", "keyed");
        data.put("card_number", card);
        data.put("pin_mode", "none");
        data.put("originator", Map.of("location_id", location == null ? DEFAULT_LOCATION : location));
        return Map.of("data", data);
    }

    // ---- the command line ----

    static final String USAGE = """
            usage: java CardApiClient.java token
                   java CardApiClient.java balance CARD [--location ID]
                   java CardApiClient.java gift CARD [--location ID] [--request-id ID]
                   java CardApiClient.java lookup REQUEST_ID""";

    record Command(String name, String argument, Map<String, String> options) {}

    static Command parseArgs(String[] argv) throws UsageException {
        Map<String, List<String>> allowed = Map.of("token", List.of(), "balance", List.of("--location"),
                "gift", List.of("--location", "--request-id"), "lookup", List.of());
        if (argv.length == 0 || !allowed.containsKey(argv[0]))
            throw new UsageException("unknown command: " + (argv.length == 0 ? "(none)" : argv[0]));
        String name = argv[0];
        List<String> positional = new ArrayList<>();
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 1; i < argv.length; i += 1) {
            if (argv[i].startsWith("--")) {
                if (!allowed.get(name).contains(argv[i]) || i + 1 >= argv.length)
                    throw new UsageException("bad option " + argv[i]);
                options.put(argv[i].substring(2), argv[i + 1]);
                i += 1;
            } else positional.add(argv[i]);
        }
        if (positional.size() != (name.equals("token") ? 0 : 1))
            throw new UsageException("wrong arguments for " + name);
        return new Command(name, positional.isEmpty() ? null : positional.get(0), options);
    }

    static Map<String, Object> callOutput(Answer answer, String requestId) {
        Map<String, Object> output = new LinkedHashMap<>();
        output.put("status", answer.status());
        output.put("request_id", requestId);
        output.put("body", answer.body());
        if (answer.stage() != null) output.put("stage", answer.stage());
        return output;
    }

    static Map<String, Object> runCommand(CardApiClient client, Command command)
            throws NoAnswerException, IOException {
        String location = command.options().get("location");
        switch (command.name()) {
            case "token": {
                TokenResult got = client.getToken();
                Map<String, Object> output = new LinkedHashMap<>();
                if (got.error() != null) {
                    output.put("status", got.error().status());
                    output.put("body", got.error().body());
                    return output;
                }
                output.put("token_type", got.token().tokenType());
                output.put("scope", got.token().scope());
                output.put("expires_at", ISO_MILLIS.format(got.token().expiresAt()));
                long left = got.token().expiresAt().toEpochMilli() - System.currentTimeMillis();
                output.put("expires_in", Json.Number.of(Math.max(0, Math.floorDiv(left, 1000))));
                return output;
            }
            case "balance":
                return callOutput(client.balance(command.argument(), location), null);
            case "lookup":
                return callOutput(client.lookup(command.argument()), command.argument());
            default: {
                GiftResult result = client.gift(command.argument(), location, command.options().get("request-id"));
                Map<String, Object> output = callOutput(result.answer(), result.requestId());
                if (result.timedOut()) {
                    output.put("timed_out", true);
                    Map<String, Object> lookup = new LinkedHashMap<>();
                    lookup.put("status", result.lookup().status());
                    lookup.put("body", result.lookup().body());
                    output.put("lookup", lookup);
                }
                return output;
            }
        }
    }

    /** Runs one command; returns the exit code. */
    static int run(String[] argv, Map<String, String> env, PrintStream out, PrintStream err) {
        try {
            Command command = parseArgs(argv);
            CardApiClient client = new CardApiClient(Config.fromEnv(env));
            Map<String, Object> output = runCommand(client, command);
            out.write((Json.write(output) + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            return 0;
        } catch (UsageException error) {
            err.println("error: " + error.getMessage() + "\n" + USAGE);
            return 2;
        } catch (ConfigException | NoAnswerException error) {
            err.println("error: " + error.getMessage());
            return 1;
        } catch (IOException error) {
            err.println("error: the token cache: " + error);
            return 1;
        }
    }

    public static void main(String[] argv) {
        // exit explicitly: the HTTP client's threads must not keep the process alive after a timeout
        System.exit(run(argv, System.getenv(), System.out, System.err));
    }

    /** JSON without libraries: objects keep their order, numbers their text, so a body passes through as is. */
    static final class Json {
        /** A JSON number, kept as its text. */
        record Number(String text) {
            static Number of(long value) {
                return new Number(Long.toString(value));
            }
        }

        private final String text;
        private int at;

        private Json(String text) {
            this.text = text;
        }

        /** Parses one JSON value; IllegalArgumentException when the text is not JSON. */
        static Object parse(String text) {
            Json reader = new Json(text);
            Object value = reader.value(0);
            reader.skipSpace();
            if (reader.at != text.length()) throw reader.fail("trailing text");
            return value;
        }

        /** The value at a path of object keys, or null. */
        static Object at(Object value, String... keys) {
            for (String key : keys) value = value instanceof Map<?, ?> map ? map.get(key) : null;
            return value;
        }

        private IllegalArgumentException fail(String why) {
            return new IllegalArgumentException("not JSON at " + at + ": " + why);
        }

        private void skipSpace() {
            while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) at += 1;
        }

        private Object value(int depth) {
            if (depth > 512) throw fail("nested too deeply");
            skipSpace();
            if (at >= text.length()) throw fail("end of text");
            char c = text.charAt(at);
            if (c == '{') return object(depth);
            if (c == '[') return array(depth);
            if (c == '"') return string();
            if (text.startsWith("true", at)) return literal("true", Boolean.TRUE);
            if (text.startsWith("false", at)) return literal("false", Boolean.FALSE);
            if (text.startsWith("null", at)) return literal("null", null);
            return number();
        }

        private Object literal(String word, Object value) {
            at += word.length();
            return value;
        }

        private Map<String, Object> object(int depth) {
            Map<String, Object> map = new LinkedHashMap<>();
            at += 1;
            skipSpace();
            if (at < text.length() && text.charAt(at) == '}') {
                at += 1;
                return map;
            }
            while (true) {
                skipSpace();
                if (at >= text.length() || text.charAt(at) != '"') throw fail("expected a key");
                String key = string();
                skipSpace();
                expect(':');
                map.put(key, value(depth + 1));
                skipSpace();
                if (at < text.length() && text.charAt(at) == ',') at += 1;
                else {
                    expect('}');
                    return map;
                }
            }
        }

        private List<Object> array(int depth) {
            List<Object> list = new ArrayList<>();
            at += 1;
            skipSpace();
            if (at < text.length() && text.charAt(at) == ']') {
                at += 1;
                return list;
            }
            while (true) {
                list.add(value(depth + 1));
                skipSpace();
                if (at < text.length() && text.charAt(at) == ',') at += 1;
                else {
                    expect(']');
                    return list;
                }
            }
        }

        private void expect(char c) {
            if (at >= text.length() || text.charAt(at) != c) throw fail("expected " + c);
            at += 1;
        }

        private String string() {
            StringBuilder out = new StringBuilder();
            at += 1;
            while (true) {
                if (at >= text.length()) throw fail("unterminated string");
                char c = text.charAt(at++);
                if (c == '"') return out.toString();
                if (c < 0x20) throw fail("control character in string");
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                if (at >= text.length()) throw fail("unterminated escape");
                char e = text.charAt(at++);
                switch (e) {
                    case '"', '\\', '/' -> out.append(e);
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        if (at + 4 > text.length() || !text.substring(at, at + 4).matches("[0-9a-fA-F]{4}"))
                            throw fail("bad \\u escape");
                        out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        at += 4;
                    }
                    default -> throw fail("bad escape");
                }
            }
        }

        private Number number() {
            java.util.regex.Matcher m = java.util.regex.Pattern
                    .compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?").matcher(text).region(at, text.length());
            if (!m.lookingAt()) throw fail("unexpected character");
            at = m.end();
            return new Number(m.group());
        }

        /** Writes a value made of Map, List, String, Number, Boolean and null as compact JSON. */
        static String write(Object value) {
            StringBuilder out = new StringBuilder();
            write(value, out);
            return out.toString();
        }

        private static void write(Object value, StringBuilder out) {
            if (value == null) out.append("null");
            else if (value instanceof String s) quote(s, out);
            else if (value instanceof Number n) out.append(n.text());
            else if (value instanceof Integer || value instanceof Long || value instanceof Boolean) out.append(value);
            else if (value instanceof Map<?, ?> map) {
                out.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    if (!first) out.append(',');
                    first = false;
                    quote(String.valueOf(entry.getKey()), out);
                    out.append(':');
                    write(entry.getValue(), out);
                }
                out.append('}');
            } else if (value instanceof List<?> list) {
                out.append('[');
                for (int i = 0; i < list.size(); i += 1) {
                    if (i > 0) out.append(',');
                    write(list.get(i), out);
                }
                out.append(']');
            } else throw new IllegalArgumentException("cannot write " + value.getClass());
        }

        private static void quote(String s, StringBuilder out) {
            out.append('"');
            for (int i = 0; i < s.length(); i += 1) {
                char c = s.charAt(i);
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    case '\t' -> out.append("\\t");
                    case '\b' -> out.append("\\b");
                    case '\f' -> out.append("\\f");
                    default -> {
                        if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                        else out.append(c);
                    }
                }
            }
            out.append('"');
        }
    }
}
