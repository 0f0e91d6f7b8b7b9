package dev.idempotency.config;

import dev.idempotency.ConfigurationException;
import dev.idempotency.rollout.RolloutMode;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * Turns the filter's string settings (init-params and the optional properties file) into an {@link
 * IdempotencyConfig}. An unknown setting is an error, so a typo cannot silently weaken a guarantee.
 *
 * <p>Stateless and thread-safe.
 */
public final class SettingsParser {
    public static final String INIT_PARAM_OPERATIONS = "operations";
    public static final String INIT_PARAM_KEY_HEADER = "key-header";
    public static final String INIT_PARAM_ROLLOUT_MODE = "rollout-mode";
    public static final String INIT_PARAM_ROLLOUT_REFRESH = "rollout-refresh";
    public static final String INIT_PARAM_KEYLESS_SUNSET = "keyless-sunset";
    public static final String INIT_PARAM_KEYLESS_LINK = "keyless-link";
    public static final String INIT_PARAM_KEYLESS_LOG_INTERVAL = "keyless-log-interval";
    public static final String INIT_PARAM_PURGE_INTERVAL = "purge-interval";
    public static final String INIT_PARAM_PURGE_BATCH_SIZE = "purge-batch-size";
    public static final String INIT_PARAM_COUNTER_FLUSH_INTERVAL = "counter-flush-interval";
    public static final String INIT_PARAM_DATASOURCE = "datasource";
    public static final String INIT_PARAM_PERSISTENCE_UNIT = "persistence-unit";
    public static final String INIT_PARAM_SCOPE_HEADER = "scope-header";
    public static final String INIT_PARAM_DATABASE = "database";
    public static final String INIT_PARAM_SCHEMA = "schema";
    public static final String INIT_PARAM_MAX_REQUEST_BODY = "max-request-body";
    public static final String INIT_PARAM_STORED_HEADERS = "stored-headers";
    public static final String INIT_PARAM_STORABLE_STATUSES = "storable-statuses";
    public static final String INIT_PARAM_RETENTION = "retention";
    public static final String INIT_PARAM_MAX_RESPONSE_BODY = "max-response-body";
    public static final String INIT_PARAM_LOCK_TIMEOUT = "lock-timeout";
    public static final String INIT_PARAM_TRANSACTION_TIMEOUT = "transaction-timeout";
    public static final String INIT_PARAM_ENCRYPTION_KEYS = "encryption-keys";

    /** Every setting the parser knows; the filter's own {@code config-file} init-param is handled before. */
    public static final Set<String> KNOWN_SETTINGS = Set.of(
            INIT_PARAM_OPERATIONS,
            INIT_PARAM_KEY_HEADER,
            INIT_PARAM_ROLLOUT_MODE,
            INIT_PARAM_ROLLOUT_REFRESH,
            INIT_PARAM_KEYLESS_SUNSET,
            INIT_PARAM_KEYLESS_LINK,
            INIT_PARAM_KEYLESS_LOG_INTERVAL,
            INIT_PARAM_PURGE_INTERVAL,
            INIT_PARAM_PURGE_BATCH_SIZE,
            INIT_PARAM_COUNTER_FLUSH_INTERVAL,
            INIT_PARAM_DATASOURCE,
            INIT_PARAM_PERSISTENCE_UNIT,
            INIT_PARAM_SCOPE_HEADER,
            INIT_PARAM_DATABASE,
            INIT_PARAM_SCHEMA,
            INIT_PARAM_MAX_REQUEST_BODY,
            INIT_PARAM_STORED_HEADERS,
            INIT_PARAM_STORABLE_STATUSES,
            INIT_PARAM_RETENTION,
            INIT_PARAM_MAX_RESPONSE_BODY,
            INIT_PARAM_LOCK_TIMEOUT,
            INIT_PARAM_TRANSACTION_TIMEOUT,
            INIT_PARAM_ENCRYPTION_KEYS);

    private SettingsParser() {}

    /**
     * @throws ConfigurationException naming the first unknown or malformed setting
     */
    public static IdempotencyConfig parse(Map<String, String> settings) {
        return parse(settings, System::getenv);
    }

    /** @param environment reads the environment variables that {@code encryption-keys} may name */
    static IdempotencyConfig parse(Map<String, String> settings, UnaryOperator<String> environment) {
        Set<String> unknown = new TreeSet<>(settings.keySet());
        unknown.removeAll(KNOWN_SETTINGS);
        if (!unknown.isEmpty()) {
            throw new ConfigurationException(
                    "unknown setting(s) " + unknown + "; known settings are " + new TreeSet<>(KNOWN_SETTINGS));
        }
        IdempotencyConfig.Builder builder = IdempotencyConfig.builder();
        String operations = settings.getOrDefault(INIT_PARAM_OPERATIONS, "");
        for (String line : operations.split("[\\n;]")) {
            if (!line.isBlank()) {
                builder.operation(Operation.parse(line));
            }
        }
        ifPresent(settings, INIT_PARAM_KEY_HEADER, builder::keyHeader);
        ifPresent(
                settings,
                INIT_PARAM_ROLLOUT_MODE,
                value -> builder.rolloutMode(RolloutMode.parse(INIT_PARAM_ROLLOUT_MODE, value)));
        ifPresent(
                settings,
                INIT_PARAM_ROLLOUT_REFRESH,
                value -> builder.rolloutRefresh(duration(INIT_PARAM_ROLLOUT_REFRESH, value)));
        ifPresent(
                settings,
                INIT_PARAM_PURGE_INTERVAL,
                value -> builder.purgeInterval(duration(INIT_PARAM_PURGE_INTERVAL, value)));
        ifPresent(
                settings,
                INIT_PARAM_COUNTER_FLUSH_INTERVAL,
                value -> builder.counterFlushInterval(duration(INIT_PARAM_COUNTER_FLUSH_INTERVAL, value)));
        ifPresent(
                settings,
                INIT_PARAM_PURGE_BATCH_SIZE,
                value -> builder.purgeBatchSize((int) Math.max(
                        Integer.MIN_VALUE,
                        Math.min(Integer.MAX_VALUE, wholeNumber(INIT_PARAM_PURGE_BATCH_SIZE, value)))));
        ifPresent(settings, INIT_PARAM_KEYLESS_SUNSET, value -> builder.keylessSunset(instant(value)));
        ifPresent(settings, INIT_PARAM_KEYLESS_LINK, value -> builder.keylessLink(uri(value)));
        ifPresent(
                settings,
                INIT_PARAM_KEYLESS_LOG_INTERVAL,
                value -> builder.keylessLogInterval(duration(INIT_PARAM_KEYLESS_LOG_INTERVAL, value)));
        ifPresent(settings, INIT_PARAM_DATASOURCE, builder::dataSource);
        ifPresent(settings, INIT_PARAM_PERSISTENCE_UNIT, builder::persistenceUnit);
        ifPresent(settings, INIT_PARAM_SCOPE_HEADER, builder::scopeHeader);
        ifPresent(settings, INIT_PARAM_DATABASE, builder::database);
        ifPresent(settings, INIT_PARAM_SCHEMA, value -> builder.schema(SchemaAction.parse(INIT_PARAM_SCHEMA, value)));
        ifPresent(
                settings,
                INIT_PARAM_MAX_REQUEST_BODY,
                value -> builder.maxRequestBodyBytes(bytes(INIT_PARAM_MAX_REQUEST_BODY, value)));
        ifPresent(
                settings,
                INIT_PARAM_MAX_RESPONSE_BODY,
                value -> builder.maxResponseBodyBytes(bytes(INIT_PARAM_MAX_RESPONSE_BODY, value)));
        ifPresent(
                settings,
                INIT_PARAM_LOCK_TIMEOUT,
                value -> builder.lockTimeout(duration(INIT_PARAM_LOCK_TIMEOUT, value)));
        ifPresent(
                settings,
                INIT_PARAM_TRANSACTION_TIMEOUT,
                value -> builder.transactionTimeout(duration(INIT_PARAM_TRANSACTION_TIMEOUT, value)));
        ifPresent(settings, INIT_PARAM_STORED_HEADERS, value -> builder.storedHeaders(list(value)));
        ifPresent(
                settings,
                INIT_PARAM_STORABLE_STATUSES,
                value -> builder.storableStatuses(StorableStatuses.parse(value)));
        ifPresent(settings, INIT_PARAM_RETENTION, value -> builder.retention(duration(INIT_PARAM_RETENTION, value)));
        ifPresent(
                settings,
                INIT_PARAM_ENCRYPTION_KEYS,
                value -> builder.encryptionKeys(EncryptionKeys.parse(INIT_PARAM_ENCRYPTION_KEYS, value, environment)));
        return builder.build();
    }

    private static void ifPresent(
            Map<String, String> settings, String name, java.util.function.Consumer<String> apply) {
        String value = settings.get(name);
        if (value != null) {
            apply.accept(value.trim());
        }
    }

    private static Instant instant(String value) {
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new ConfigurationException(INIT_PARAM_KEYLESS_SUNSET
                    + " must be an ISO-8601 instant such as 2027-03-01T00:00:00Z, was '" + value + "'");
        }
    }

    private static URI uri(String value) {
        try {
            return new URI(value);
        } catch (URISyntaxException e) {
            throw new ConfigurationException(INIT_PARAM_KEYLESS_LINK + " must be a URI, was '" + value + "'");
        }
    }

    private static long bytes(String setting, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new ConfigurationException(
                    setting + " must be a number of bytes such as 1048576, was '" + value + "'");
        }
    }

    private static long wholeNumber(String setting, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new ConfigurationException(setting + " must be a whole number such as 1000, was '" + value + "'");
        }
    }

    private static Duration duration(String setting, String value) {
        try {
            return Duration.parse(value);
        } catch (DateTimeParseException e) {
            throw new ConfigurationException(
                    setting + " must be an ISO-8601 duration such as PT24H or PT10S, was '" + value + "'");
        }
    }

    private static List<String> list(String value) {
        return Arrays.stream(value.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }
}
