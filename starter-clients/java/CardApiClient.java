// Card Services API starter client: Java 17+, standard library only. See README.md.
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A client of the Card Services API that keeps every duty the specification puts on a client. */
public final class CardApiClient {
    public static final String VERSION = "1.1.0";
    static final String USER_AGENT = "card-api-client-java/" + VERSION + " (java " + Runtime.version() + ")";
    static final String TOKEN_PATH = "/reporting/v1/auth/token";
    static final String GIFT_PATH = "/transaction/v1/gift/balance-inquiry";
    static final String BALANCE_PATH = "/transaction/v1/balance-inquiry";
    static final String LOOKUP_PATH = "/transaction/v1/transactions/request-id/";
    public static final String DEFAULT_LOCATION = "store-001";
    // Renew this long before expiry (half the lifetime for a short one), so a token never expires in flight.
    static final long RENEW_MARGIN_MS = 60_000;
    /** The longest Retry-After waited out; beyond it the call gives up without calling again. */
    public static final long PATIENCE_MS = 60_000;
    // Pauses before the 2nd and 3rd try of a token request or a read: never a tight loop against a failing server.
    static final long[] BACKOFF_MS = {600, 1200};
    // A Retry-After given as an HTTP date has whole seconds: wait past the second it names.
    static final long DATE_MARGIN_MS = 1000;
    // A Gift Balance Inquiry whose outcome is unknown is sent again (same Request Id) at most this often.
    static final int MAX_GIFT_SENDS = 3;
    static final DateTimeFormatter ISO_MILLIS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    /** Every error of this client carries the Request Id and transaction id it knows of (null when none). */
    public static class CardApiException extends Exception {
        String requestId;
        final String transactionId;

        CardApiException(String message, String requestId, String transactionId) {
            super(message);
            this.requestId = requestId;
            this.transactionId = transactionId;
        }

        public String requestId() {
            return requestId;
        }

        public String transactionId() {
            return transactionId;
        }
    }

    /** Nobody answered: connection refused or reset, the answer cut short, or no whole answer in time. */
    public static final class UnreachableException extends CardApiException {
        public final boolean timedOut;
        public final String stage;

        UnreachableException(String message, boolean timedOut, String stage) {
            super(message, null, null);
            this.timedOut = timedOut;
            this.stage = stage;
        }
    }

    /** A Gift Balance Inquiry was sent, and neither its answer nor a lookup said whether it was recorded. */
    public static final class OutcomeUnknownException extends CardApiException {
        OutcomeUnknownException(String message, String requestId) {
            super(message, requestId, null);
        }
    }

    /** The API answered, but not with a result: any 3xx, 4xx, or a 5xx a read still got after its retries. */
    public static class RefusedException extends CardApiException {
        public final Result result;
        public final String code;
        public final String stage;

        RefusedException(String message, Result result, String stage) {
            super(message, result.requestId(), result.transactionId());
            this.result = result;
            this.code = Json.at(result.body(), "errors") instanceof List<?> errors && !errors.isEmpty()
                    && Json.at(errors.get(0), "code") instanceof String text ? text : null;
            this.stage = stage;
        }
    }

    /** A 429 asked for a wait longer than PATIENCE_MS: nothing more was sent. */
    public static final class RateLimitedException extends RefusedException {
        RateLimitedException(String message, Result result, String stage) {
            super(message, result, stage);
        }
    }

    /** A Gift Balance Inquiry answered response_status "declined": a result, never to be sent again. */
    public static final class DeclinedException extends CardApiException {
        public final Result result;

        DeclinedException(Result result) {
            super("declined", result.requestId(), result.transactionId());
            this.result = result;
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

    /** One HTTP answer: the body parsed as JSON, or its text (isJson false), or null when empty. */
    record Answer(int status, Object body, boolean isJson, String retryAfter, String location) {
        /** A server error, or a success that could not be read: what happened cannot be told from it. */
        boolean outcomeUnknown() {
            return status >= 500 || (status < 300 && !isJson);
        }

        Map<String, Object> exchange() {
            Map<String, Object> printed = new LinkedHashMap<>();
            printed.put("status", status);
            printed.put("body", body);
            return printed;
        }
    }

    /** What a call came to. For a Gift Balance Inquiry whose answer was lost, {@code lookup} is what found it. */
    public record Result(Integer status, String requestId, String transactionId, Object body, String location,
            boolean timedOut, Map<String, Object> lookup, Map<String, Object> resent) {
        Map<String, Object> toJson(String stage) {
            Map<String, Object> printed = new LinkedHashMap<>();
            printed.put("status", status);
            printed.put("request_id", requestId);
            printed.put("transaction_id", transactionId);
            printed.put("body", body);
            if (location != null) printed.put("location", location);
            if (stage != null) printed.put("stage", stage);
            if (timedOut) printed.put("timed_out", true);
            if (lookup != null) printed.put("lookup", lookup);
            if (resent != null) printed.put("resent", resent);
            return printed;
        }
    }

    /** The cached token, as the cache file holds it; the lifetime stays in memory. */
    public record Token(String authUrl, String clientId, String accessToken, String tokenType, String scope,
            Instant expiresAt, long lifetimeMs) {
        boolean fresh() {
            long margin = lifetimeMs > 0 ? Math.min(RENEW_MARGIN_MS, lifetimeMs / 2) : RENEW_MARGIN_MS;
            return expiresAt.toEpochMilli() - System.currentTimeMillis() > margin;
        }
    }

    private final Config config;
    // No redirect is followed: a 3xx is the answer, so the token never goes to another host.
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER)
            .version(HttpClient.Version.HTTP_1_1).build();
    private Token token;

    public CardApiClient(Config config) {
        this.config = config;
    }

    /** One HTTP exchange, headers and whole body within one deadline. */
    Answer send(HttpRequest.Builder request, String url) throws UnreachableException {
        String origin = url.replaceAll("^([a-zA-Z][a-zA-Z0-9+.-]*://[^/?#]*).*$", "$1");
        CompletableFuture<HttpResponse<String>> pending = null;
        try {
            request.uri(URI.create(url)).timeout(Duration.ofMillis(config.timeoutMs()))
                    .header("User-Agent", USER_AGENT).header("Accept", "application/json");
            pending = http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            HttpResponse<String> response = pending.get(config.timeoutMs(), TimeUnit.MILLISECONDS);
            Object body = null;
            boolean isJson = true;
            if (!response.body().isEmpty()) {
                try {
                    body = Json.parse(response.body());
                } catch (IllegalArgumentException notJson) {
                    body = response.body();
                    isJson = false;
                }
            }
            return new Answer(response.statusCode(), body, isJson,
                    response.headers().firstValue("Retry-After").orElse(null),
                    response.headers().firstValue("Location").orElse(null));
        } catch (TimeoutException error) {
            pending.cancel(true);
            throw new UnreachableException(origin + ": no answer within " + config.timeoutMs() + " ms", true, null);
        } catch (ExecutionException error) {
            Throwable cause = error.getCause();
            boolean timedOut = cause instanceof java.net.http.HttpTimeoutException;
            String reason = timedOut ? "no answer within " + config.timeoutMs() + " ms"
                    : cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
            throw new UnreachableException(origin + ": " + reason, timedOut, null);
        } catch (IllegalArgumentException error) {
            throw new UnreachableException(origin + ": " + error.getMessage(), false, null);
        } catch (InterruptedException error) {
            Thread.currentThread().interrupt();
            throw new UnreachableException(origin + ": interrupted", false, null);
        }
    }

    Token readCache() {
        try {
            Object cached = Json.parse(Files.readString(Path.of(config.cacheFile()), StandardCharsets.UTF_8));
            if (!(Json.at(cached, "access_token") instanceof String access)) return null;
            Token found = new Token(String.valueOf(Json.at(cached, "auth_url")),
                    String.valueOf(Json.at(cached, "client_id")), access,
                    String.valueOf(Json.at(cached, "token_type")), String.valueOf(Json.at(cached, "scope")),
                    Instant.parse(String.valueOf(Json.at(cached, "expires_at"))), 0);
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

    /**
     * API specification §4.1, the only request that carries the secret: at most 3 tries when the endpoint fails (5xx, 429, no
     * answer), spaced by BACKOFF_MS; a 4xx or 3xx is the answer (RefusedException).
     */
    public Token requestToken() throws CardApiException, IOException {
        Map<String, Object> credentials = new LinkedHashMap<>();
        credentials.put("client_id", config.clientId());
        credentials.put("client_secret", config.clientSecret());
        credentials.put("grant_type", "client_credentials");
        String failure = "";
        for (int attempt = 0; attempt <= BACKOFF_MS.length; attempt += 1) {
            long wait = 0;
            try {
                Answer answer = send(HttpRequest.newBuilder()
                        .header("Content-Type", "application/json; charset=utf-8")
                        .POST(HttpRequest.BodyPublishers.ofString(Json.write(credentials), StandardCharsets.UTF_8)),
                        config.authUrl() + TOKEN_PATH);
                Object attributes = Json.at(answer.body(), "data", "attributes");
                if (answer.status() == 200 && Json.at(attributes, "access_token") instanceof String access)
                    return keep(access, attributes);
                Result result = new Result(answer.status(), null, null, answer.body(), answer.location(), false,
                        null, null);
                if (answer.status() < 500 && answer.status() != 429 && answer.status() != 200)
                    throw new RefusedException("the token request was answered " + answer.status(), result, "token");
                failure = "the token endpoint answered " + answer.status();
                if (answer.status() == 429) wait = retryAfterMs(answer.retryAfter(), System.currentTimeMillis());
                if (wait > PATIENCE_MS) throw new RateLimitedException(tooLong(answer, wait), result, "token");
            } catch (UnreachableException error) {
                failure = error.getMessage();
            }
            if (attempt < BACKOFF_MS.length) pause(Math.max(wait, BACKOFF_MS[attempt]));
        }
        throw new UnreachableException("no token after " + (BACKOFF_MS.length + 1) + " requests: " + failure, false,
                "token");
    }

    private Token keep(String access, Object attributes) throws IOException {
        long lifetimeMs = Json.at(attributes, "expires_in") instanceof Json.Num n
                ? Math.max(0, (long) (Double.parseDouble(n.text()) * 1000)) : 0;
        Token next = new Token(config.authUrl(), config.clientId(), access,
                Json.at(attributes, "token_type") instanceof String type ? type : "Bearer",
                Json.at(attributes, "scope") instanceof String scope ? scope : "",
                Instant.ofEpochMilli(System.currentTimeMillis() + lifetimeMs), lifetimeMs);
        writeCache(next);
        token = next;
        return next;
    }

    /** API specification §5.7: the token in memory, else the cached one, else a new one; renewed before it expires (API specification §5.8). */
    public Token getToken() throws CardApiException, IOException {
        if (token == null || !token.fresh()) {
            Token cached = readCache();
            token = cached != null ? cached : requestToken();
        }
        return token;
    }

    /**
     * One API call with the duties around it. A 401: one new token, the same call once more (API specification §5.8). A 429: wait
     * Retry-After, then once more (a second 429 is the answer, after its own wait), or give up when it is beyond
     * PATIENCE_MS (RFC 9110). A read ({@code retry}) is
     * tried up to 3 times when its outcome is unknown; a write never is here (see gift). A 403 is never retried.
     */
    Answer call(String method, String path, Object body, String requestId, boolean retry)
            throws CardApiException, IOException {
        Token current = getToken();
        boolean renewed = false;
        boolean waited = false;
        int tries = 0;
        while (true) {
            HttpRequest.Builder request = HttpRequest.newBuilder()
                    .header("Authorization", "Bearer " + current.accessToken());
            if (body != null) request.header("Content-Type", "application/json");
            if (requestId != null) request.header("X-Request-Id", requestId);
            request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(Json.write(body), StandardCharsets.UTF_8));
            Answer answer;
            try {
                answer = send(request, config.baseUrl() + path);
            } catch (UnreachableException error) {
                if (!retry || tries >= BACKOFF_MS.length) throw error;
                pause(BACKOFF_MS[tries++]);
                continue;
            }
            if (answer.status() == 401 && !renewed) {
                renewed = true;
                current = requestToken();
            } else if (answer.status() == 429) {
                long wait = retryAfterMs(answer.retryAfter(), System.currentTimeMillis());
                if (wait > PATIENCE_MS) {
                    Result result = new Result(429, requestId, null, answer.body(), null, false, null, null);
                    throw new RateLimitedException(tooLong(answer, wait), result, null);
                }
                // A second 429 is the answer, given once its window has passed: no next command calls inside it.
                pause(wait);
                if (waited) return answer;
                waited = true;
            } else if (retry && answer.outcomeUnknown() && tries < BACKOFF_MS.length) {
                pause(BACKOFF_MS[tries++]);
            } else return answer;
        }
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException error) {
            Thread.currentThread().interrupt();
        }
    }

    private static String tooLong(Answer answer, long waitMs) {
        return "asked to wait " + waitMs / 1000 + " s (Retry-After: " + answer.retryAfter() + "), beyond "
                + PATIENCE_MS / 1000 + " s";
    }

    /** How long a 429 asks to wait (RFC 9110 §10.2.3): seconds or an HTTP date; 1 s when absent or unreadable. */
    static long retryAfterMs(String header, long now) {
        String text = header == null ? "" : header.strip();
        if (text.matches("[0-9]{1,9}")) return Long.parseLong(text) * 1000 + 100;
        try {
            long date = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
            return Math.max(date - now, 0) + DATE_MARGIN_MS;
        } catch (RuntimeException unreadable) {
            return 1000;
        }
    }

    /** A final answer: a result, or the exception that says what kind of answer it was. */
    static Result settle(Answer answer, String requestId, Map<String, Object> lookup, Map<String, Object> resent)
            throws CardApiException {
        Result result = new Result(answer.status(), requestId, transactionIdOf(answer.body()), answer.body(),
                answer.location(), false, lookup, resent);
        if (answer.status() >= 300) throw new RefusedException("answered " + answer.status(), result, null);
        if ("declined".equals(Json.at(answer.body(), "data", "response_status"))) throw new DeclinedException(result);
        return result;
    }

    static String transactionIdOf(Object body) {
        return Json.at(body, "data", "transaction_id") instanceof String id ? id : null;
    }

    /** API specification §4.4 Balance Inquiry: records nothing, so it is retried when its answer is lost. */
    public Result balance(String card, String location) throws CardApiException, IOException {
        return settle(call("POST", BALANCE_PATH, cardBody(card, location), null, true), null, null, null);
    }

    /** Lookup Transaction by Request Id (API specification §4.3.3); a 404 (never recorded) is a RefusedException. */
    public Result lookup(String requestId) throws CardApiException, IOException {
        return settle(lookupAnswer(requestId), requestId, null, null);
    }

    private Answer lookupAnswer(String requestId) throws CardApiException, IOException {
        String encoded = URLEncoder.encode(requestId, StandardCharsets.UTF_8).replace("+", "%20");
        return call("GET", LOOKUP_PATH + encoded, null, null, true);
    }

    /**
     * API specification §4.3 Gift Balance Inquiry under a fresh Request Id (API specification §8) unless one is given. When its outcome is unknown
     * (5xx, no answer in time, a reset, a cut or unreadable body), nothing else happens for that card before the
     * outcome is learned (API specification §4.3.3): a lookup by the Request Id; when that finds nothing, the same request with the
     * same Request Id once more.
     */
    public Result gift(String card, String location, String requestId) throws CardApiException, IOException {
        String id = requestId != null ? requestId : UUID.randomUUID().toString();
        Map<String, Object> body = cardBody(card, location);
        Answer first = null;
        Map<String, Object> lookup = null;
        Map<String, Object> resent = null;
        boolean timedOut = false;
        String why = null;
        Answer found = null;
        for (int sends = 1; sends <= MAX_GIFT_SENDS; sends += 1) {
            boolean duplicate = false;
            try {
                Answer answer = call("POST", GIFT_PATH, body, id, false);
                if (sends == 1) first = answer;
                else resent = answer.exchange();
                // A 409 to a resend: the first one was recorded (or is still in flight): only a lookup can tell.
                duplicate = sends > 1 && answer.status() == 409;
                if (!answer.outcomeUnknown() && !duplicate) return settle(answer, id, lookup, resent);
                if (why == null) why = "the inquiry was answered " + answer.status();
            } catch (UnreachableException error) {
                error.requestId = id;
                if ("token".equals(error.stage)) throw error;
                if (why == null) why = error.getMessage();
                timedOut |= sends == 1 && error.timedOut;
            } catch (CardApiException error) {
                error.requestId = id;
                throw error;
            }
            try {
                found = lookupAnswer(id);
            } catch (UnreachableException error) {
                throw new OutcomeUnknownException(why + "; the lookup: " + error.getMessage(), id);
            }
            lookup = found.exchange();
            if (found.status() == 200 && found.isJson()) {
                Result result = new Result(first == null ? null : first.status(), id, transactionIdOf(found.body()),
                        first == null ? null : first.body(), null, timedOut, lookup, resent);
                if ("declined".equals(Json.at(found.body(), "data", "response_status")))
                    throw new DeclinedException(result);
                return result;
            }
            // 404: never recorded, so the same request under the same Request Id cannot record it twice.
            if (found.status() != 404 || duplicate) break;
        }
        throw new OutcomeUnknownException(why + "; the lookup answered " + found.status(), id);
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

    static Map<String, Object> runCommand(CardApiClient client, Command command)
            throws CardApiException, IOException {
        String location = command.options().get("location");
        switch (command.name()) {
            case "token": {
                Token got = client.getToken();
                Map<String, Object> output = new LinkedHashMap<>();
                output.put("token_type", got.tokenType());
                output.put("scope", got.scope());
                output.put("expires_at", ISO_MILLIS.format(got.expiresAt()));
                long left = got.expiresAt().toEpochMilli() - System.currentTimeMillis();
                output.put("expires_in", Math.max(0, Math.floorDiv(left, 1000)));
                return output;
            }
            case "balance":
                return client.balance(command.argument(), location).toJson(null);
            case "lookup":
                return client.lookup(command.argument()).toJson(null);
            default:
                return client.gift(command.argument(), location, command.options().get("request-id")).toJson(null);
        }
    }

    /** Runs one command; returns the exit code (API specification §12: 0 answered, 1 no answer or no patience, 2 usage). */
    static int run(String[] argv, Map<String, String> env, PrintStream out, PrintStream err) {
        Map<String, Object> output;
        try {
            Command command = parseArgs(argv);
            output = runCommand(new CardApiClient(Config.fromEnv(env)), command);
        } catch (UsageException error) {
            err.println("error: " + error.getMessage() + "\n" + USAGE);
            return 2;
        } catch (DeclinedException declined) {
            output = declined.result.toJson(null);
        } catch (RefusedException refused) {
            if (refused instanceof RateLimitedException) return fail(err, refused.getMessage());
            output = refused.result.toJson(refused.stage);
        } catch (CardApiException error) {
            // No answer or an unknown outcome: the reason, never a stack trace.
            String id = error.requestId();
            String hint = id == null ? "" : " (Request Id " + id + ")";
            if (id != null && error instanceof OutcomeUnknownException)
                hint = " (Request Id " + id + ": learn its outcome with `lookup " + id + "`)";
            return fail(err, error.getMessage() + hint);
        } catch (ConfigException error) {
            return fail(err, error.getMessage());
        } catch (IOException error) {
            return fail(err, "the token cache: " + error);
        }
        byte[] printed = (Json.write(output) + "\n").getBytes(StandardCharsets.UTF_8);
        out.write(printed, 0, printed.length);
        out.flush();
        return 0;
    }

    private static int fail(PrintStream err, String message) {
        err.println("error: " + message);
        return 1;
    }

    public static void main(String[] argv) {
        // exit explicitly: the HTTP client's threads must not keep the process alive after a timeout
        System.exit(run(argv, System.getenv(), System.out, System.err));
    }

    /** A small JSON reader and writer: objects keep their order, numbers their text (a body passes through). */
    static final class Json {
        /** A JSON number, kept as its text. */
        record Num(String text) {}

        private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
        private final String s;
        private int i;

        private Json(String s) {
            this.s = s;
        }

        /** One JSON value; IllegalArgumentException when the text is not JSON. */
        static Object parse(String text) {
            Json reader = new Json(text);
            Object value = reader.value(0);
            if (reader.peek() != 0) throw reader.fail();
            return value;
        }

        /** The value at a path of object keys, or null. */
        static Object at(Object value, String... keys) {
            for (String key : keys) value = value instanceof Map<?, ?> map ? map.get(key) : null;
            return value;
        }

        private IllegalArgumentException fail() {
            return new IllegalArgumentException("not JSON at " + i);
        }

        /** The next character after white space, or 0 at the end. */
        private char peek() {
            while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i += 1;
            return i < s.length() ? s.charAt(i) : 0;
        }

        private boolean eat(char c) {
            if (peek() != c) return false;
            i += 1;
            return true;
        }

        private Object value(int depth) {
            if (depth > 256) throw fail();
            if (eat('{')) {
                Map<String, Object> map = new LinkedHashMap<>();
                if (eat('}')) return map;
                do {
                    if (peek() != '"') throw fail();
                    String key = string();
                    if (!eat(':')) throw fail();
                    map.put(key, value(depth + 1));
                } while (eat(','));
                if (!eat('}')) throw fail();
                return map;
            }
            if (eat('[')) {
                List<Object> list = new ArrayList<>();
                if (eat(']')) return list;
                do list.add(value(depth + 1)); while (eat(','));
                if (!eat(']')) throw fail();
                return list;
            }
            if (peek() == '"') return string();
            for (String word : new String[] {"true", "false", "null"}) {
                if (s.startsWith(word, i)) {
                    i += word.length();
                    return word.equals("null") ? null : Boolean.valueOf(word);
                }
            }
            Matcher number = NUMBER.matcher(s).region(i, s.length());
            if (!number.lookingAt()) throw fail();
            i = number.end();
            return new Num(number.group());
        }

        private String string() {
            StringBuilder out = new StringBuilder();
            for (i += 1; ; ) {
                if (i >= s.length()) throw fail();
                char c = s.charAt(i++);
                if (c == '"') return out.toString();
                if (c < 0x20) throw fail();
                if (c != '\\') out.append(c);
                else if (i < s.length() && "\"\\/bfnrt".indexOf(s.charAt(i)) >= 0)
                    out.append("\"\\/\b\f\n\r\t".charAt("\"\\/bfnrt".indexOf(s.charAt(i++))));
                else if (s.startsWith("u", i) && i + 5 <= s.length()) {
                    // IllegalArgumentException, as for any text that is not JSON, when they are not 4 hex digits.
                    out.append((char) HexFormat.fromHexDigits(s, i + 1, i + 5));
                    i += 5;
                } else throw fail();
            }
        }

        /** Compact JSON of Map, List, String, Num, Number, Boolean and null. */
        static String write(Object value) {
            if (value == null || value instanceof Boolean || value instanceof Number) return String.valueOf(value);
            if (value instanceof Num n) return n.text();
            if (value instanceof Map<?, ?> map) {
                List<String> fields = new ArrayList<>();
                map.forEach((key, each) -> fields.add(quote(String.valueOf(key)) + ":" + write(each)));
                return "{" + String.join(",", fields) + "}";
            }
            if (value instanceof List<?> list) {
                List<String> items = new ArrayList<>();
                list.forEach(each -> items.add(write(each)));
                return "[" + String.join(",", items) + "]";
            }
            return quote(value.toString());
        }

        private static String quote(String text) {
            StringBuilder out = new StringBuilder("\"");
            for (char c : text.toCharArray()) {
                int escape = "\"\\\b\f\n\r\t".indexOf(c);
                if (escape >= 0) out.append('\\').append("\"\\bfnrt".charAt(escape));
                else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                else out.append(c);
            }
            return out.append('"').toString();
        }
    }
}
