package dev.idempotency.config;

import dev.idempotency.ConfigurationException;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.rollout.RolloutMode;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * Every setting of the filter, each declared once: its name, format, default, parser and bounds. A new setting
 * is one declaration here, one entry in {@link #ALL}, and its section in {@code docs/configuration.md}, whose
 * table a test compares with these declarations.
 *
 * <p>Stateless and thread-safe.
 */
public final class Settings {
    private Settings() {}

    /** Headers that carry credentials or session state: replaying them would hand one client's session to another. */
    private static final Set<String> NEVER_STORED = Collections.unmodifiableSet(new HashSet<>(
            Arrays.asList("set-cookie", "set-cookie2", "www-authenticate", "authorization", "proxy-authenticate")));

    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
    private static final Pattern FORM_FIELD = Pattern.compile("[\\x21\\x23-\\x25\\x27-\\x3A\\x3C\\x3E-\\x7E]+");

    /** The shortest retention: a record must outlive its own transaction and a client's first retries. */
    public static final Duration MIN_RETENTION = Duration.ofMinutes(1);

    public static final Setting<List<Operation>> OPERATIONS = Setting.of(
            "operations",
            "`METHOD /path/{var} = name:version [options]`, one per line or separated by `;`; options: "
                    + String.join(
                            ", ",
                            OperationOptions.ALL.stream()
                                    .map(option -> "`" + option.written() + "`")
                                    .collect(Collectors.toList())),
            "none; required",
            Collections.emptyList(),
            (name, text, environment) -> operations(text));

    public static final Setting<String> KEY_HEADER =
            Setting.of("key-header", "an HTTP header name", "`Idempotency-Key`", "Idempotency-Key", Settings::header);

    public static final Setting<String> KEY_FIELD = Setting.optional(
            "key-field", "a form field name", "none: only the key header carries a key", Settings::formField);

    public static final Setting<RolloutMode> ROLLOUT_MODE = Setting.of(
            "rollout-mode",
            "`OFF`, `OPTIONAL`, `REQUIRED` or `DRAIN`",
            "`OPTIONAL`",
            RolloutMode.OPTIONAL,
            (name, text, environment) -> RolloutMode.parse(name, text));

    public static final Setting<Duration> ROLLOUT_REFRESH = Setting.of(
            "rollout-refresh",
            "an ISO-8601 duration from `PT1S` to `PT10M`",
            "`PT5S`",
            Duration.ofSeconds(5),
            (name, text, environment) -> {
                Duration refresh = Setting.duration(name, text);
                if (refresh.compareTo(Duration.ofSeconds(1)) < 0 || refresh.compareTo(Duration.ofMinutes(10)) > 0) {
                    throw new ConfigurationException(name + " must be between PT1S and PT10M, was " + refresh);
                }
                return refresh;
            });

    public static final Setting<Instant> KEYLESS_SUNSET = Setting.optional(
            "keyless-sunset",
            "an ISO-8601 instant, such as `2027-03-01T00:00:00Z`",
            "none: no `Sunset` header",
            (name, text, environment) -> {
                try {
                    return Instant.parse(text);
                } catch (DateTimeParseException e) {
                    throw new ConfigurationException(
                            name + " must be an ISO-8601 instant such as 2027-03-01T00:00:00Z, was '" + text + "'");
                }
            });

    public static final Setting<URI> KEYLESS_LINK = Setting.optional(
            "keyless-link",
            "an absolute URI, or a path starting with `/`",
            "none: no `Link` header",
            (name, text, environment) -> link(name, text));

    public static final Setting<Duration> KEYLESS_LOG_INTERVAL = Setting.of(
            "keyless-log-interval",
            "an ISO-8601 duration, at least `PT10S`",
            "`PT5M`",
            Duration.ofMinutes(5),
            Setting.atLeast(Duration.ofSeconds(10)));

    public static final Setting<Integer> KEYLESS_HISTORY_DAYS = Setting.of(
            "keyless-history-days", "a whole number of days from 7 to 3660", "`90`", 90, Setting.between(7, 3660));

    public static final Setting<Integer> READINESS_QUIET_DAYS = Setting.of(
            "readiness-quiet-days",
            "a whole number of days from 1 to 3660, at most `keyless-history-days`",
            "`30`",
            30,
            Setting.between(1, 3660));

    public static final Setting<Duration> KEYLESS_DUPLICATE_WINDOW = Setting.of(
            "keyless-duplicate-window",
            "an ISO-8601 duration from `PT1S` to `PT1H`",
            "`PT10S`",
            Duration.ofSeconds(10),
            (name, text, environment) -> {
                Duration window = Setting.duration(name, text);
                if (window.compareTo(Duration.ofSeconds(1)) < 0 || window.compareTo(Duration.ofHours(1)) > 0) {
                    throw new ConfigurationException(name + " must be between PT1S and PT1H, was " + window);
                }
                return window;
            });

    public static final Setting<String> DATASOURCE = Setting.optional(
            "datasource",
            "a JNDI name",
            "the `jta-data-source` of the WAR's JTA persistence unit",
            (name, text, environment) -> {
                if (text.trim().isEmpty()) {
                    throw new ConfigurationException(
                            name + " must be a JNDI name such as java:jboss/datasources/AppDS, was blank");
                }
                return text;
            });

    public static final Setting<String> PERSISTENCE_UNIT = Setting.optional(
            "persistence-unit", "a persistence unit name", "the WAR's only JTA unit", (name, text, environment) -> {
                if (text.trim().isEmpty()) {
                    throw new ConfigurationException(name + " must name a unit in persistence.xml, was blank");
                }
                return text;
            });

    public static final Setting<String> SCOPE_HEADER = Setting.optional(
            "scope-header", "an HTTP header name", "none: a keyed request needs a principal", Settings::header);

    /** An HMAC-SHA-256 key shorter than its output would be the weakest part of the digest (RFC 2104, section 3). */
    public static final int MIN_SCOPE_HEADER_KEY_BYTES = 32;

    public static final Setting<SecretKey> SCOPE_HEADER_KEY = Setting.<SecretKey>optional(
                    "scope-header-key",
                    "the Base64 of at least 32 random bytes, or `env:VARIABLE` naming a variable that holds it",
                    "none: a `scope-header` value is kept as its plain SHA-256 digest",
                    (name, text, environment) -> {
                        byte[] key = Setting.base64Secret(name, text, environment);
                        if (key.length < MIN_SCOPE_HEADER_KEY_BYTES) {
                            throw new ConfigurationException(name + " must be at least " + MIN_SCOPE_HEADER_KEY_BYTES
                                    + " bytes, was " + key.length + " (generate one with 'openssl rand -base64 32')");
                        }
                        return new SecretKeySpec(key, "HmacSHA256");
                    })
            // Never the key itself: the start-up line says only that one is set.
            .shownAs(key -> "set");

    public static final Setting<String> DATABASE = Setting.optional(
            "database",
            inWords(SqlDialect.SETTING_VALUES),
            "detected from the datasource",
            (name, text, environment) -> {
                String normalized = text.toLowerCase(Locale.ROOT);
                if (!SqlDialect.SETTING_VALUES.contains(normalized)) {
                    throw new ConfigurationException(name + " must be one of " + SqlDialect.SETTING_VALUES + ", was '"
                            + text + "'; leave it unset to detect the engine from the datasource");
                }
                return normalized;
            });

    /**
     * Engines this project's build cannot run (SQL Server, Oracle, MySQL) have SQL written from their manuals; the
     * filter starts on one only when the user says so, after checking it with the store check.
     */
    public static final Setting<Boolean> UNTESTED_ENGINE =
            Setting.of("untested-engine", "`refuse` or `allow`", "`refuse`", false, (name, text, environment) -> {
                switch (text.toLowerCase(Locale.ROOT)) {
                    case "allow":
                        return true;
                    case "refuse":
                        return false;
                    default:
                        throw new ConfigurationException(name + " must be refuse or allow, was '" + text + "'; allow"
                                + " starts the filter on an engine this project does not test, once the store check"
                                + " has passed on your database (docs/engines.md#check-your-database)");
                }
            });

    public static final Setting<SchemaAction> SCHEMA = Setting.of(
            "schema",
            "`validate`, `create` or `none`",
            "`validate`",
            SchemaAction.VALIDATE,
            (name, text, environment) -> SchemaAction.parse(name, text));

    public static final Setting<Long> MAX_REQUEST_BODY = Setting.of(
            "max-request-body",
            "a number of bytes, at least `1024`",
            "`1048576` (1 MiB)",
            1024L * 1024,
            Setting.bytes(1024));

    public static final Setting<Long> MAX_RESPONSE_BODY = Setting.of(
            "max-response-body",
            "a number of bytes, at least `1024`",
            "`1048576` (1 MiB)",
            1024L * 1024,
            Setting.bytes(1024));

    public static final Setting<List<String>> STORED_HEADERS = Setting.of(
            "stored-headers",
            "comma-separated header names",
            "`Content-Type, Location`",
            Collections.unmodifiableList(Arrays.asList("Content-Type", "Location")),
            (name, text, environment) -> storedHeaders(name, text));

    public static final Setting<StorableStatuses> STORABLE_STATUSES = Setting.of(
            "storable-statuses",
            "`2xx`, optionally `3xx` and 4xx codes",
            "`2xx`",
            StorableStatuses.DEFAULT,
            (name, text, environment) -> StorableStatuses.parse(text));

    public static final Setting<Duration> RETENTION = Setting.of(
            "retention",
            "an ISO-8601 duration, at least `PT1M` and at least `transaction-timeout`",
            "`PT24H`",
            Duration.ofHours(24),
            Setting.atLeast(MIN_RETENTION));

    public static final Setting<Duration> LATE_RETRY_WINDOW = Setting.of(
            "late-retry-window",
            "an ISO-8601 duration, at least `PT1M`",
            "`P7D`",
            Duration.ofDays(7),
            Setting.atLeast(Duration.ofMinutes(1)));

    public static final Setting<Duration> LOCK_TIMEOUT = Setting.of(
            "lock-timeout",
            "an ISO-8601 duration in whole seconds, at least `PT1S`",
            "`PT10S`",
            Duration.ofSeconds(10),
            Setting.wholeSeconds());

    public static final Setting<Duration> TRANSACTION_TIMEOUT = Setting.optional(
            "transaction-timeout",
            "an ISO-8601 duration in whole seconds, at least `PT1S`",
            "the container's default",
            Setting.wholeSeconds());

    public static final Setting<Duration> PURGE_INTERVAL = Setting.of(
            "purge-interval",
            "an ISO-8601 duration, at least `PT1S`",
            "`PT15M`",
            Duration.ofMinutes(15),
            Setting.atLeast(Duration.ofSeconds(1)));

    public static final Setting<Integer> PURGE_BATCH_SIZE = Setting.of(
            "purge-batch-size", "a whole number from 1 to 100000", "`1000`", 1000, Setting.between(1, 100_000));

    public static final Setting<Duration> COUNTER_FLUSH_INTERVAL = Setting.of(
            "counter-flush-interval",
            "an ISO-8601 duration, at least `PT1S`",
            "`PT30S`",
            Duration.ofSeconds(30),
            Setting.atLeast(Duration.ofSeconds(1)));

    public static final Setting<EncryptionKeys> ENCRYPTION_KEYS = Setting.of(
                    "encryption-keys",
                    "`id=<Base64 AES key>` or `id=env:VARIABLE`, comma-separated; the first seals new records",
                    "none: no operation may be `encrypted`",
                    EncryptionKeys.NONE,
                    EncryptionKeys::parse)
            // Ids only: the start-up line must never print a key.
            .shownAs(EncryptionKeys::toString);

    public static final Setting<RetryHints> RETRY_HINTS = Setting.of(
                    "retry-hints", "`none` or `sdk`", "`none`", RetryHints.NONE, Setting.choice(RetryHints.class))
            .shownAs(Setting::written);

    public static final Setting<ProblemErrorMember> PROBLEM_ERROR_MEMBER = Setting.of(
                    "problem-error-member",
                    "`none` or `stripe`",
                    "`none`",
                    ProblemErrorMember.NONE,
                    Setting.choice(ProblemErrorMember.class))
            .shownAs(Setting::written);

    /** Every setting, in the order of the settings table and the start-up line. */
    public static final List<Setting<?>> ALL = Collections.unmodifiableList(Arrays.asList(
            OPERATIONS,
            KEY_HEADER,
            KEY_FIELD,
            ROLLOUT_MODE,
            ROLLOUT_REFRESH,
            KEYLESS_SUNSET,
            KEYLESS_LINK,
            KEYLESS_LOG_INTERVAL,
            KEYLESS_HISTORY_DAYS,
            READINESS_QUIET_DAYS,
            KEYLESS_DUPLICATE_WINDOW,
            DATASOURCE,
            PERSISTENCE_UNIT,
            SCOPE_HEADER,
            SCOPE_HEADER_KEY,
            DATABASE,
            UNTESTED_ENGINE,
            SCHEMA,
            MAX_REQUEST_BODY,
            MAX_RESPONSE_BODY,
            STORED_HEADERS,
            STORABLE_STATUSES,
            RETENTION,
            LATE_RETRY_WINDOW,
            LOCK_TIMEOUT,
            TRANSACTION_TIMEOUT,
            PURGE_INTERVAL,
            PURGE_BATCH_SIZE,
            COUNTER_FLUSH_INTERVAL,
            ENCRYPTION_KEYS,
            RETRY_HINTS,
            PROBLEM_ERROR_MEMBER));

    /** {@code `a`, `b` or `c`}, as the settings table writes a choice. */
    private static String inWords(List<String> values) {
        List<String> quoted = values.stream().map(value -> "`" + value + "`").collect(Collectors.toList());
        return String.join(", ", quoted.subList(0, quoted.size() - 1)) + " or " + quoted.get(quoted.size() - 1);
    }

    /** The names of every setting. */
    public static Set<String> names() {
        Set<String> names = new TreeSet<>();
        ALL.forEach(setting -> names.add(setting.name()));
        return names;
    }

    private static String header(String name, String text, UnaryOperator<String> environment) {
        if (!TOKEN.matcher(text).matches()) {
            throw new ConfigurationException(name + " must be an HTTP header name, was '" + text + "'");
        }
        return text;
    }

    /** A form field name as browsers send it: printable ASCII without the characters that end a pair. */
    static String formField(String name, String text, UnaryOperator<String> environment) {
        if (!FORM_FIELD.matcher(text).matches()) {
            throw new ConfigurationException(name + " must be a form field name of printable characters without"
                    + " spaces, '=', '&', '\"' or ';', was '" + text + "'");
        }
        return text;
    }

    /**
     * One operation per line or {@code ;}-separated entry; entries that share a method and path must be told
     * apart by their conditions.
     */
    private static List<Operation> operations(String text) {
        List<Operation> operations = new ArrayList<>();
        for (String line : text.split("[\\n;]")) {
            if (line.trim().isEmpty()) {
                continue;
            }
            Operation operation = Operation.parse(line);
            for (Operation existing : operations) {
                if (existing.method().equals(operation.method())
                        && existing.path().shape().equals(operation.path().shape())) {
                    requireDistinguishable(existing, operation);
                }
            }
            operations.add(operation);
        }
        return Collections.unmodifiableList(operations);
    }

    /** Two entries on one path must condition on the same parameters, with different values. */
    private static void requireDistinguishable(Operation existing, Operation operation) {
        String both = "'" + existing.method() + " " + existing.route() + "' (" + existing.contract() + ") and '"
                + operation.method() + " " + operation.route() + "' (" + operation.contract() + ")";
        if (existing.conditions().isEmpty() || operation.conditions().isEmpty()) {
            throw new ConfigurationException("operations: " + both + " both cover the same requests; an"
                    + " operation without conditions covers every request to its path, so give each entry on"
                    + " this path a condition such as '?action=buy'");
        }
        if (!existing.conditions().keySet().equals(operation.conditions().keySet())) {
            throw new ConfigurationException("operations: " + both + " are ambiguous: a request could meet"
                    + " both conditions; entries on one path must name the same parameters, with different"
                    + " values");
        }
        if (existing.conditions().equals(operation.conditions())) {
            throw new ConfigurationException("operations: " + both + " cover the same requests; give them"
                    + " different parameter values, or remove one");
        }
    }

    private static URI link(String name, String text) {
        URI link;
        try {
            link = new URI(text);
        } catch (URISyntaxException e) {
            throw new ConfigurationException(name + " must be a URI, was '" + text + "'");
        }
        boolean breaksLinkHeader = text.chars().anyMatch(c -> c == '<' || c == '>' || c == '"' || c <= ' ');
        if ((!link.isAbsolute() && !text.startsWith("/")) || breaksLinkHeader) {
            throw new ConfigurationException(name + " must be an absolute URI or a path starting with '/',"
                    + " without spaces, quotes or angle brackets, was '" + link + "'");
        }
        return link;
    }

    /** @throws ConfigurationException for a name that is no header token, or that carries credentials */
    private static List<String> storedHeaders(String name, String text) {
        Set<String> seen = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        for (String header : Arrays.stream(text.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .collect(Collectors.toList())) {
            if (!TOKEN.matcher(header).matches()) {
                throw new ConfigurationException(name + " must list HTTP header names, had '" + header + "'");
            }
            if (NEVER_STORED.contains(header.toLowerCase(Locale.ROOT))) {
                throw new ConfigurationException(name + " must not contain '" + header
                        + "': it carries credentials or session state and would be replayed to other requests");
            }
            seen.add(header);
        }
        return Collections.unmodifiableList(new ArrayList<>(seen));
    }
}
