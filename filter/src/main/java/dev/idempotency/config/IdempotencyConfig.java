package dev.idempotency.config;

import dev.idempotency.ConfigurationException;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.rollout.RolloutMode;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * The filter's validated, immutable configuration. Build it with {@link #builder()}; every setter
 * validates its argument and names the bad value.
 *
 * <p>Immutable and thread-safe.
 */
public final class IdempotencyConfig {
    public static final String DEFAULT_KEY_HEADER = "Idempotency-Key";
    public static final long DEFAULT_MAX_REQUEST_BODY_BYTES = 1024 * 1024;
    public static final List<String> DEFAULT_STORED_HEADERS = List.of("Content-Type", "Location");
    public static final Duration DEFAULT_RETENTION = Duration.ofHours(24);
    public static final Duration MIN_RETENTION = Duration.ofMinutes(1);
    public static final long DEFAULT_MAX_RESPONSE_BODY_BYTES = 1024 * 1024;
    public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(10);
    public static final RolloutMode DEFAULT_ROLLOUT_MODE = RolloutMode.OPTIONAL;
    public static final Duration DEFAULT_ROLLOUT_REFRESH = Duration.ofSeconds(5);
    public static final Duration DEFAULT_KEYLESS_LOG_INTERVAL = Duration.ofMinutes(5);
    public static final Duration DEFAULT_PURGE_INTERVAL = Duration.ofMinutes(15);
    public static final Duration DEFAULT_COUNTER_FLUSH_INTERVAL = Duration.ofSeconds(30);
    public static final int DEFAULT_PURGE_BATCH_SIZE = 1000;

    /** Headers that carry credentials or session state: replaying them would hand one client's session to another. */
    private static final Set<String> NEVER_STORED =
            Set.of("set-cookie", "set-cookie2", "www-authenticate", "authorization", "proxy-authenticate");

    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    private final List<Operation> operations;
    private final String keyHeader;
    private final RolloutMode rolloutMode;
    private final Duration rolloutRefresh;
    private final Instant keylessSunset;
    private final URI keylessLink;
    private final Duration keylessLogInterval;
    private final Duration purgeInterval;
    private final Duration counterFlushInterval;
    private final int purgeBatchSize;
    private final String dataSource;
    private final String persistenceUnit;
    private final String scopeHeader;
    private final String database;
    private final SchemaAction schema;
    private final long maxRequestBodyBytes;
    private final List<String> storedHeaders;
    private final StorableStatuses storableStatuses;
    private final EncryptionKeys encryptionKeys;
    private final Duration retention;
    private final long maxResponseBodyBytes;
    private final Duration lockTimeout;
    private final Duration transactionTimeout;

    private IdempotencyConfig(Builder b) {
        this.operations = List.copyOf(b.operations);
        this.keyHeader = b.keyHeader;
        this.rolloutMode = b.rolloutMode;
        this.rolloutRefresh = b.rolloutRefresh;
        this.keylessSunset = b.keylessSunset;
        this.keylessLink = b.keylessLink;
        this.keylessLogInterval = b.keylessLogInterval;
        this.purgeInterval = b.purgeInterval;
        this.counterFlushInterval = b.counterFlushInterval;
        this.purgeBatchSize = b.purgeBatchSize;
        this.dataSource = b.dataSource;
        this.persistenceUnit = b.persistenceUnit;
        this.scopeHeader = b.scopeHeader;
        this.database = b.database;
        this.schema = b.schema;
        this.maxRequestBodyBytes = b.maxRequestBodyBytes;
        this.storedHeaders = List.copyOf(b.storedHeaders);
        this.storableStatuses = b.storableStatuses;
        this.encryptionKeys = b.encryptionKeys;
        this.retention = b.retention;
        this.maxResponseBodyBytes = b.maxResponseBodyBytes;
        this.lockTimeout = b.lockTimeout;
        this.transactionTimeout = b.transactionTimeout;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The covered operation for this method and context-relative path, among those without conditions. */
    public Optional<Operation> operationFor(String method, String path) {
        return operationFor(method, path, name -> null);
    }

    /**
     * The covered operation for this request, if any. At most one can match: entries that share a method and
     * path are refused at start-up unless their conditions tell them apart.
     *
     * @param parameter the request parameter the application would read with {@code getParameter(name)};
     *     asked only when an operation on this path has conditions
     */
    public Optional<Operation> operationFor(String method, String path, UnaryOperator<String> parameter) {
        for (Operation operation : operations) {
            if (operation.matches(method, path) && operation.meetsConditions(parameter)) {
                return Optional.of(operation);
            }
        }
        return Optional.empty();
    }

    /** Whether an operation on this method and path has parameter conditions, so parameters must be read. */
    public boolean hasConditionsOn(String method, String path) {
        return operations.stream()
                .anyMatch(operation -> !operation.conditions().isEmpty() && operation.matches(method, path));
    }

    public List<Operation> operations() {
        return operations;
    }

    public String keyHeader() {
        return keyHeader;
    }

    /** The mode of an operation that has no row in {@code idempotency_rollout}. */
    public RolloutMode rolloutMode() {
        return rolloutMode;
    }

    /** How old the cached rollout modes may get: the delay before a switch reaches every node. */
    public Duration rolloutRefresh() {
        return rolloutRefresh;
    }

    /** When keyless requests stop working, announced in a {@code Sunset} header under OPTIONAL. */
    public Optional<Instant> keylessSunset() {
        return Optional.ofNullable(keylessSunset);
    }

    /** The migration guide for keyless clients, linked with {@code rel="describedby"} under OPTIONAL. */
    public Optional<URI> keylessLink() {
        return Optional.ofNullable(keylessLink);
    }

    public Duration keylessLogInterval() {
        return keylessLogInterval;
    }

    /** How often each node deletes expired records. */
    public Duration purgeInterval() {
        return purgeInterval;
    }

    /** How often each node adds its outcome and keyless counts to the cluster-wide counters. */
    public Duration counterFlushInterval() {
        return counterFlushInterval;
    }

    /** How many expired records one purge transaction deletes at most. */
    public int purgeBatchSize() {
        return purgeBatchSize;
    }

    /** The JNDI name of the datasource the records are written with, if set; otherwise found from the WAR. */
    public Optional<String> dataSource() {
        return Optional.ofNullable(dataSource);
    }

    /** The application's persistence unit whose JTA datasource the records share, if set. */
    public Optional<String> persistenceUnit() {
        return Optional.ofNullable(persistenceUnit);
    }

    /**
     * The header a trusted gateway sets to the caller's identity, used as the scope of keyed requests that
     * carry no container principal; empty means such requests get 401.
     */
    public Optional<String> scopeHeader() {
        return Optional.ofNullable(scopeHeader);
    }

    /** The engine named by the {@code database} setting; empty means it is detected from the datasource. */
    public Optional<String> database() {
        return Optional.ofNullable(database);
    }

    /** What the filter does about its tables at start-up. */
    public SchemaAction schema() {
        return schema;
    }

    public long maxRequestBodyBytes() {
        return maxRequestBodyBytes;
    }

    public List<String> storedHeaders() {
        return storedHeaders;
    }

    /** The keys that seal the records of encrypted operations; {@link EncryptionKeys#NONE} if not set. */
    public EncryptionKeys encryptionKeys() {
        return encryptionKeys;
    }

    /** The contracts of the operations whose records are sealed. */
    public Set<String> encryptedOperations() {
        Set<String> encrypted = new java.util.LinkedHashSet<>();
        operations.stream().filter(Operation::encrypted).forEach(operation -> encrypted.add(operation.contract()));
        return encrypted;
    }

    public StorableStatuses storableStatuses() {
        return storableStatuses;
    }

    public Duration retention() {
        return retention;
    }

    /** How long records of this operation are kept: its own retention, or the {@code retention} setting. */
    public Duration retentionOf(Operation operation) {
        return operation.retention() == null ? retention : operation.retention();
    }

    public long maxResponseBodyBytes() {
        return maxResponseBodyBytes;
    }

    /** How long a duplicate waits for the request that holds its key before it gets 409. */
    public Duration lockTimeout() {
        return lockTimeout;
    }

    /** The timeout of the filter's transactions, or empty for the container's default. */
    public Optional<Duration> transactionTimeout() {
        return Optional.ofNullable(transactionTimeout);
    }

    /** One line for the start-up log. Holds no secrets: encryption keys appear by id only. */
    @Override
    public String toString() {
        return "operations=" + operations + ", key-header=" + keyHeader + ", rollout-mode=" + rolloutMode
                + ", rollout-refresh="
                + rolloutRefresh + ", datasource=" + (dataSource == null ? "from the WAR" : dataSource)
                + ", persistence-unit=" + (persistenceUnit == null ? "the only JTA unit" : persistenceUnit)
                + ", scope-header=" + (scopeHeader == null ? "none (principal only)" : scopeHeader)
                + ", database=" + (database == null ? "detected" : database) + ", schema=" + schema
                + ", max-request-body="
                + maxRequestBodyBytes
                + ", stored-headers=" + storedHeaders + ", storable-statuses=" + storableStatuses + ", retention="
                + retention + ", max-response-body=" + maxResponseBodyBytes + ", lock-timeout=" + lockTimeout
                + ", transaction-timeout=" + (transactionTimeout == null ? "container default" : transactionTimeout)
                + ", keyless-sunset=" + (keylessSunset == null ? "none" : keylessSunset) + ", keyless-link="
                + (keylessLink == null ? "none" : keylessLink) + ", keyless-log-interval=" + keylessLogInterval
                + ", purge-interval=" + purgeInterval
                + ", counter-flush-interval=" + counterFlushInterval
                + ", purge-batch-size=" + purgeBatchSize
                + ", encryption-keys=" + encryptionKeys;
    }

    /** Collects and validates settings. Not thread-safe; build once at start-up. */
    public static final class Builder {
        private final List<Operation> operations = new ArrayList<>();
        private String keyHeader = DEFAULT_KEY_HEADER;
        private RolloutMode rolloutMode = DEFAULT_ROLLOUT_MODE;
        private Duration rolloutRefresh = DEFAULT_ROLLOUT_REFRESH;
        private Instant keylessSunset;
        private URI keylessLink;
        private Duration keylessLogInterval = DEFAULT_KEYLESS_LOG_INTERVAL;
        private Duration purgeInterval = DEFAULT_PURGE_INTERVAL;
        private Duration counterFlushInterval = DEFAULT_COUNTER_FLUSH_INTERVAL;
        private int purgeBatchSize = DEFAULT_PURGE_BATCH_SIZE;
        private EncryptionKeys encryptionKeys = EncryptionKeys.NONE;
        private String dataSource;
        private String persistenceUnit;
        private String scopeHeader;
        private String database;
        private SchemaAction schema = SchemaAction.VALIDATE;
        private long maxRequestBodyBytes = DEFAULT_MAX_REQUEST_BODY_BYTES;
        private List<String> storedHeaders = DEFAULT_STORED_HEADERS;
        private StorableStatuses storableStatuses = StorableStatuses.DEFAULT;
        private Duration retention = DEFAULT_RETENTION;
        private long maxResponseBodyBytes = DEFAULT_MAX_RESPONSE_BODY_BYTES;
        private Duration lockTimeout = DEFAULT_LOCK_TIMEOUT;
        private Duration transactionTimeout;

        private Builder() {}

        /**
         * @throws ConfigurationException if another operation already covers the same method and paths (templates
         *     that differ only in variable names cover the same paths), unless conditions on the same parameters
         *     tell the two apart
         */
        public Builder operation(Operation operation) {
            for (Operation existing : operations) {
                if (existing.method().equals(operation.method())
                        && existing.path().shape().equals(operation.path().shape())) {
                    requireDistinguishable(existing, operation);
                }
            }
            operations.add(operation);
            return this;
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

        /** @throws ConfigurationException if the name is not an HTTP header token */
        public Builder keyHeader(String name) {
            if (!TOKEN.matcher(name).matches()) {
                throw new ConfigurationException("key-header must be an HTTP header name, was '" + name + "'");
            }
            this.keyHeader = name;
            return this;
        }

        public Builder rolloutMode(RolloutMode mode) {
            this.rolloutMode = mode;
            return this;
        }

        /** @throws ConfigurationException if the delay is shorter than one second or longer than ten minutes */
        public Builder rolloutRefresh(Duration refresh) {
            if (refresh.compareTo(Duration.ofSeconds(1)) < 0 || refresh.compareTo(Duration.ofMinutes(10)) > 0) {
                throw new ConfigurationException("rollout-refresh must be between PT1S and PT10M, was " + refresh);
            }
            this.rolloutRefresh = refresh;
            return this;
        }

        public Builder keylessSunset(Instant sunset) {
            this.keylessSunset = sunset;
            return this;
        }

        /** @throws ConfigurationException if the link is not an absolute URI or an absolute path */
        public Builder keylessLink(URI link) {
            String text = link.toString();
            boolean breaksLinkHeader = text.chars().anyMatch(c -> c == '<' || c == '>' || c == '"' || c <= ' ');
            if ((!link.isAbsolute() && !text.startsWith("/")) || breaksLinkHeader) {
                throw new ConfigurationException("keyless-link must be an absolute URI or a path starting with '/',"
                        + " without spaces, quotes or angle brackets, was '" + link + "'");
            }
            this.keylessLink = link;
            return this;
        }

        /** @throws ConfigurationException if the interval is shorter than one second */
        public Builder purgeInterval(Duration interval) {
            if (interval.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new ConfigurationException("purge-interval must be ≥ PT1S, was " + interval);
            }
            this.purgeInterval = interval;
            return this;
        }

        /** @throws ConfigurationException if the interval is shorter than one second */
        public Builder counterFlushInterval(Duration interval) {
            if (interval.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new ConfigurationException("counter-flush-interval must be ≥ PT1S, was " + interval);
            }
            this.counterFlushInterval = interval;
            return this;
        }

        /** @throws ConfigurationException if the size is not between 1 and 100000 */
        public Builder purgeBatchSize(int size) {
            if (size < 1 || size > 100_000) {
                throw new ConfigurationException("purge-batch-size must be between 1 and 100000, was " + size);
            }
            this.purgeBatchSize = size;
            return this;
        }

        /** @throws ConfigurationException if the interval is shorter than ten seconds */
        public Builder keylessLogInterval(Duration interval) {
            if (interval.compareTo(Duration.ofSeconds(10)) < 0) {
                throw new ConfigurationException("keyless-log-interval must be ≥ PT10S, was " + interval);
            }
            this.keylessLogInterval = interval;
            return this;
        }

        /** @throws ConfigurationException if the name is blank, or {@code persistence-unit} is set too */
        public Builder dataSource(String jndiName) {
            if (jndiName.isBlank()) {
                throw new ConfigurationException(
                        "datasource must be a JNDI name such as java:jboss/datasources/AppDS, was blank");
            }
            if (persistenceUnit != null) {
                throw new ConfigurationException("datasource and persistence-unit are both set; set one of them");
            }
            this.dataSource = jndiName.trim();
            return this;
        }

        /** @throws ConfigurationException if the name is blank, or {@code datasource} is set too */
        public Builder persistenceUnit(String unitName) {
            if (unitName.isBlank()) {
                throw new ConfigurationException("persistence-unit must name a unit in persistence.xml, was blank");
            }
            if (dataSource != null) {
                throw new ConfigurationException("datasource and persistence-unit are both set; set one of them");
            }
            this.persistenceUnit = unitName.trim();
            return this;
        }

        /** @throws ConfigurationException if the name is not an HTTP header token */
        public Builder scopeHeader(String name) {
            if (!TOKEN.matcher(name).matches()) {
                throw new ConfigurationException("scope-header must be an HTTP header name, was '" + name + "'");
            }
            this.scopeHeader = name;
            return this;
        }

        /** @throws ConfigurationException if the database is not one the library supports */
        public Builder database(String name) {
            String normalized = name.trim().toLowerCase(Locale.ROOT);
            if (!SqlDialect.SETTING_VALUES.contains(normalized)) {
                throw new ConfigurationException("database must be one of " + SqlDialect.SETTING_VALUES + ", was '"
                        + name + "'; leave it unset to detect the engine from the datasource");
            }
            this.database = normalized;
            return this;
        }

        public Builder schema(SchemaAction action) {
            this.schema = action;
            return this;
        }

        /** @throws ConfigurationException if the limit is below 1 KiB */
        public Builder maxRequestBodyBytes(long bytes) {
            if (bytes < 1024) {
                throw new ConfigurationException("max-request-body must be ≥ 1024 bytes, was " + bytes);
            }
            this.maxRequestBodyBytes = bytes;
            return this;
        }

        /**
         * @throws ConfigurationException if a name is not a header token, or names a header that carries
         *     credentials or session state ({@code Set-Cookie}, {@code WWW-Authenticate}, {@code Authorization})
         */
        public Builder storedHeaders(List<String> names) {
            Set<String> seen = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
            for (String name : names) {
                if (!TOKEN.matcher(name).matches()) {
                    throw new ConfigurationException("stored-headers must list HTTP header names, had '" + name + "'");
                }
                if (NEVER_STORED.contains(name.toLowerCase(Locale.ROOT))) {
                    throw new ConfigurationException("stored-headers must not contain '" + name
                            + "': it carries credentials or session state and would be replayed to other requests");
                }
                seen.add(name);
            }
            this.storedHeaders = List.copyOf(seen);
            return this;
        }

        public Builder encryptionKeys(EncryptionKeys keys) {
            this.encryptionKeys = keys;
            return this;
        }

        public Builder storableStatuses(StorableStatuses statuses) {
            this.storableStatuses = statuses;
            return this;
        }

        /** @throws ConfigurationException if the retention is shorter than one minute */
        public Builder retention(Duration retention) {
            if (retention.compareTo(MIN_RETENTION) < 0) {
                throw new ConfigurationException("retention must be ≥ " + MIN_RETENTION + ", was " + retention);
            }
            this.retention = retention;
            return this;
        }

        /** @throws ConfigurationException if the limit is below 1 KiB */
        public Builder maxResponseBodyBytes(long bytes) {
            if (bytes < 1024) {
                throw new ConfigurationException("max-response-body must be ≥ 1024 bytes, was " + bytes);
            }
            this.maxResponseBodyBytes = bytes;
            return this;
        }

        /** @throws ConfigurationException if the timeout is not a whole number of seconds, at least one */
        public Builder lockTimeout(Duration timeout) {
            this.lockTimeout = wholeSeconds("lock-timeout", timeout);
            return this;
        }

        /** @throws ConfigurationException if the timeout is not a whole number of seconds, at least one */
        public Builder transactionTimeout(Duration timeout) {
            this.transactionTimeout = wholeSeconds("transaction-timeout", timeout);
            return this;
        }

        private static Duration max(Duration a, Duration b) {
            return a.compareTo(b) >= 0 ? a : b;
        }

        /** JDBC query timeouts and JTA transaction timeouts both count in whole seconds. */
        private static Duration wholeSeconds(String setting, Duration timeout) {
            if (timeout.compareTo(Duration.ofSeconds(1)) < 0 || timeout.toNanosPart() != 0) {
                throw new ConfigurationException(
                        setting + " must be a whole number of seconds, at least PT1S, was " + timeout);
            }
            return timeout;
        }

        /**
         * @throws ConfigurationException if no operation is configured, or the retention is shorter than the
         *     transaction timeout (a record could expire while its own transaction still runs)
         */
        public IdempotencyConfig build() {
            if (operations.isEmpty()) {
                throw new ConfigurationException("operations must list at least one operation, such as"
                        + " 'POST /api/accounts/{id}/debits = debit:v1'; it was empty");
            }
            Duration floor = transactionTimeout == null ? MIN_RETENTION : max(MIN_RETENTION, transactionTimeout);
            if (retention.compareTo(floor) < 0) {
                throw new ConfigurationException("retention must be ≥ " + floor
                        + " (one minute, and the transaction-timeout), was " + retention);
            }
            for (Operation operation : operations) {
                if (operation.encrypted() && encryptionKeys.isEmpty()) {
                    throw new ConfigurationException("operations: " + operation.contract() + " is encrypted, but"
                            + " encryption-keys lists no key; add one such as 'encryption-keys ="
                            + " 2026-12=<base64 of 32 random bytes>'");
                }
                if (operation.retention() != null && operation.retention().compareTo(floor) < 0) {
                    throw new ConfigurationException("operations: the retention of " + operation.contract()
                            + " must be ≥ " + floor + " (one minute, and the transaction-timeout), was "
                            + operation.retention());
                }
            }
            return new IdempotencyConfig(this);
        }
    }
}
