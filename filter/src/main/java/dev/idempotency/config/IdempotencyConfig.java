package dev.idempotency.config;

import dev.idempotency.ConfigurationException;
import dev.idempotency.rollout.RolloutMode;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.UnaryOperator;
import javax.crypto.SecretKey;

/**
 * The filter's validated, immutable configuration: a value for every setting of {@link Settings}, given or
 * defaulted, checked one by one as they are parsed and together here. Made by {@link SettingsParser}.
 *
 * <p>Immutable and thread-safe.
 */
public final class IdempotencyConfig {
    private final Map<Setting<?>, Object> values;
    private final Map<String, OperationPolicy> policies;

    /**
     * @param values the given settings' values; a setting that is absent takes its default
     * @throws ConfigurationException if no operation is configured, both {@code datasource} and {@code
     *     persistence-unit} are set, a retention is shorter than the transaction timeout (a record could expire
     *     while its own transaction still runs), an operation is encrypted without {@code encryption-keys}, or
     *     {@code readiness-quiet-days} is longer than the {@code keyless-history-days} that could show it, or two
     *     entries of one contract would give it different policies
     */
    IdempotencyConfig(Map<Setting<?>, Object> values) {
        this.values = Collections.unmodifiableMap(new HashMap<>(values));
        if (operations().isEmpty()) {
            throw new ConfigurationException("operations must list at least one operation, such as"
                    + " 'POST /api/accounts/{id}/debits = debit:v1'; it was empty");
        }
        if (dataSource().isPresent() && persistenceUnit().isPresent()) {
            throw new ConfigurationException("datasource and persistence-unit are both set; set one of them");
        }
        Duration floor = transactionTimeout()
                .filter(timeout -> timeout.compareTo(Settings.MIN_RETENTION) > 0)
                .orElse(Settings.MIN_RETENTION);
        if (retention().compareTo(floor) < 0) {
            throw new ConfigurationException(
                    "retention must be ≥ " + floor + " (one minute, and the transaction-timeout), was " + retention());
        }
        if (readinessQuietDays() > keylessHistoryDays()) {
            throw new ConfigurationException("readiness-quiet-days must be at most keyless-history-days ("
                    + keylessHistoryDays() + "), since no older day is kept, was " + readinessQuietDays());
        }
        for (Operation operation : operations()) {
            if (operation.encrypted() && encryptionKeys().isEmpty()) {
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
        this.policies = resolvedPolicies();
    }

    /**
     * Each contract's policy, made from its first entry. Records are keyed by contract, so every other entry of it
     * must resolve each option that governs them to the same value: otherwise which entry a request came in by
     * would decide how its retry is answered.
     */
    private Map<String, OperationPolicy> resolvedPolicies() {
        Map<String, Operation> firstEntries = new HashMap<>();
        Map<String, OperationPolicy> resolved = new HashMap<>();
        for (Operation operation : operations()) {
            Operation first = firstEntries.putIfAbsent(operation.contract(), operation);
            if (first != null) {
                requireOnePolicy(first, operation);
                continue;
            }
            resolved.put(
                    operation.contract(),
                    new OperationPolicy(
                            operation.contract(),
                            retentionOf(operation),
                            lateRetryWindowOf(operation),
                            operation.concurrency() == Operation.Concurrency.WAIT,
                            operation.replayRoles(),
                            keyFieldOf(operation)));
        }
        return Collections.unmodifiableMap(resolved);
    }

    private void requireOnePolicy(Operation first, Operation other) {
        for (OperationOption<?> option : OperationOptions.ALL) {
            // ignore= only shapes how the requests to its own entry are compared, and an entry's path and
            // conditions are part of those requests, so entries of one contract may leave out different parts.
            if (option == OperationOptions.IGNORE) {
                continue;
            }
            Object firstValue = resolved(first, option);
            Object otherValue = resolved(other, option);
            if (!Objects.equals(firstValue, otherValue)) {
                throw new ConfigurationException("operations: '" + first + "' and '" + other + "' share the"
                        + " contract " + first.contract() + " but differ in " + option.name() + " ("
                        + shown(option, firstValue) + " and " + shown(option, otherValue) + "); the records of a"
                        + " contract are one key space, kept and answered by one policy, so give both entries the"
                        + " same " + option.name() + ", or give each its own contract");
            }
        }
    }

    /** The option's value for this entry, with the setting it defaults to where it has none of its own. */
    private Object resolved(Operation operation, OperationOption<?> option) {
        if (option == OperationOptions.RETENTION) {
            return retentionOf(operation);
        }
        if (option == OperationOptions.KEY_FIELD) {
            return keyFieldOf(operation).orElse(null);
        }
        return operation.option(option);
    }

    @SuppressWarnings("unchecked") // resolved gives each option a value of its own type
    private static <T> String shown(OperationOption<T> option, Object value) {
        return option.shown((T) value);
    }

    /** The setting's value: the one given, or its default; {@code null} for an unset setting without one. */
    @SuppressWarnings("unchecked")
    public <T> T get(Setting<T> setting) {
        return values.containsKey(setting) ? (T) values.get(setting) : setting.defaultValue();
    }

    private <T> Optional<T> find(Setting<T> setting) {
        return Optional.ofNullable(get(setting));
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
        for (Operation operation : operations()) {
            if (operation.matches(method, path) && operation.meetsConditions(parameter)) {
                return Optional.of(operation);
            }
        }
        return Optional.empty();
    }

    /** Whether an operation on this method and path has parameter conditions, so parameters must be read. */
    public boolean hasConditionsOn(String method, String path) {
        return operations().stream()
                .anyMatch(operation -> !operation.conditions().isEmpty() && operation.matches(method, path));
    }

    public List<Operation> operations() {
        return get(Settings.OPERATIONS);
    }

    public String keyHeader() {
        return get(Settings.KEY_HEADER);
    }

    /** The mode of an operation that has no row in {@code idempotency_rollout}. */
    public RolloutMode rolloutMode() {
        return get(Settings.ROLLOUT_MODE);
    }

    /** How old the cached rollout modes may get: the delay before a switch reaches every node. */
    public Duration rolloutRefresh() {
        return get(Settings.ROLLOUT_REFRESH);
    }

    /** When keyless requests stop working, announced in a {@code Sunset} header under OPTIONAL. */
    public Optional<Instant> keylessSunset() {
        return find(Settings.KEYLESS_SUNSET);
    }

    /** The migration guide for keyless clients, linked with {@code rel="describedby"} under OPTIONAL. */
    public Optional<URI> keylessLink() {
        return find(Settings.KEYLESS_LINK);
    }

    public Duration keylessLogInterval() {
        return get(Settings.KEYLESS_LOG_INTERVAL);
    }

    /** How many UTC days of keyless history {@code idempotency_keyless_day} keeps, today included. */
    public int keylessHistoryDays() {
        return get(Settings.KEYLESS_HISTORY_DAYS);
    }

    /** How many days without a keyless request make an operation ready to require keys. */
    public int readinessQuietDays() {
        return get(Settings.READINESS_QUIET_DAYS);
    }

    /** How soon a client's same keyless request again counts as a probable duplicate. */
    public Duration keylessDuplicateWindow() {
        return get(Settings.KEYLESS_DUPLICATE_WINDOW);
    }

    /** How often each node deletes expired records. */
    public Duration purgeInterval() {
        return get(Settings.PURGE_INTERVAL);
    }

    /** How often each node adds its outcome and keyless counts to the cluster-wide counters. */
    public Duration counterFlushInterval() {
        return get(Settings.COUNTER_FLUSH_INTERVAL);
    }

    /** How many expired records one purge transaction deletes at most. */
    public int purgeBatchSize() {
        return get(Settings.PURGE_BATCH_SIZE);
    }

    /** The JNDI name of the datasource the records are written with, if set; otherwise found from the WAR. */
    public Optional<String> dataSource() {
        return find(Settings.DATASOURCE);
    }

    /** The application's persistence unit whose JTA datasource the records share, if set. */
    public Optional<String> persistenceUnit() {
        return find(Settings.PERSISTENCE_UNIT);
    }

    /**
     * The header a trusted gateway sets to the caller's identity, used as the scope of keyed requests that
     * carry no container principal; empty means such requests get 401.
     */
    public Optional<String> scopeHeader() {
        return find(Settings.SCOPE_HEADER);
    }

    /** The key that digests {@code scope-header} values into scopes; empty for a plain SHA-256 digest. */
    public Optional<SecretKey> scopeHeaderKey() {
        return find(Settings.SCOPE_HEADER_KEY);
    }

    /** The engine named by the {@code database} setting; empty means it is detected from the datasource. */
    public Optional<String> database() {
        return find(Settings.DATABASE);
    }

    /** Whether the filter may start on an engine this project's build does not run ({@code untested-engine}). */
    public boolean allowsUntestedEngine() {
        return get(Settings.UNTESTED_ENGINE);
    }

    /** What the filter does about its tables at start-up. */
    public SchemaAction schema() {
        return get(Settings.SCHEMA);
    }

    public long maxRequestBodyBytes() {
        return get(Settings.MAX_REQUEST_BODY);
    }

    public List<String> storedHeaders() {
        return get(Settings.STORED_HEADERS);
    }

    /** The keys that seal the records of encrypted operations; {@link EncryptionKeys#NONE} if not set. */
    public EncryptionKeys encryptionKeys() {
        return get(Settings.ENCRYPTION_KEYS);
    }

    /** The contracts of the operations whose records are sealed. */
    public Set<String> encryptedOperations() {
        Set<String> encrypted = new LinkedHashSet<>();
        operations().stream().filter(Operation::encrypted).forEach(operation -> encrypted.add(operation.contract()));
        return encrypted;
    }

    public StorableStatuses storableStatuses() {
        return get(Settings.STORABLE_STATUSES);
    }

    public Duration retention() {
        return get(Settings.RETENTION);
    }

    /**
     * The operation's policy (retention, late retries, waiting, replay roles, key field), resolved against the
     * settings when the configuration was read: the same for every entry of its contract.
     */
    public OperationPolicy policyOf(Operation operation) {
        return policies.get(operation.contract());
    }

    /** How long records of this operation are kept: its own retention, or the {@code retention} setting. */
    private Duration retentionOf(Operation operation) {
        return operation.retention() == null ? retention() : operation.retention();
    }

    /** The {@code key-field} setting: the form field browsers' keys come in, if any. */
    public Optional<String> keyField() {
        return find(Settings.KEY_FIELD);
    }

    /**
     * The form field a browser's key comes in when a request to this operation has no key header: its own {@code
     * key-field=}, or the {@code key-field} setting; empty when keys come in the header only.
     */
    private Optional<String> keyFieldOf(Operation operation) {
        return operation.keyField() == null ? find(Settings.KEY_FIELD) : Optional.of(operation.keyField());
    }

    /**
     * How long after its retention a record still refuses a late retry: {@code late-retry-window} for an
     * operation with {@code after-expiry=refuse}, zero for the others.
     */
    private Duration lateRetryWindowOf(Operation operation) {
        return operation.afterExpiry() == Operation.AfterExpiry.REFUSE
                ? get(Settings.LATE_RETRY_WINDOW)
                : Duration.ZERO;
    }

    public long maxResponseBodyBytes() {
        return get(Settings.MAX_RESPONSE_BODY);
    }

    /** How long a duplicate waits for the request that holds its key before it gets 409. */
    public RetryHints retryHints() {
        return get(Settings.RETRY_HINTS);
    }

    public ProblemErrorMember problemErrorMember() {
        return get(Settings.PROBLEM_ERROR_MEMBER);
    }

    public Duration lockTimeout() {
        return get(Settings.LOCK_TIMEOUT);
    }

    /** The timeout of the filter's transactions, or empty for the container's default. */
    public Optional<Duration> transactionTimeout() {
        return find(Settings.TRANSACTION_TIMEOUT);
    }

    /**
     * The effective configuration in one line, every setting in the order of {@link Settings#ALL}, for the
     * start-up log. Holds no secrets: encryption keys appear by id only.
     */
    @Override
    public String toString() {
        StringJoiner line = new StringJoiner(", ");
        Settings.ALL.forEach(setting -> line.add(setting.name() + "=" + shown(setting)));
        return line.toString();
    }

    private <T> String shown(Setting<T> setting) {
        return setting.display(get(setting));
    }
}
