package dev.idempotency.config;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.ConfigurationException;
import dev.idempotency.rollout.RolloutMode;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SettingsParserTest {
    private static final String DEBITS = "POST /api/accounts/{id}/debits = debit:v1";

    /** Valid operations plus one more setting. */
    private static Map<String, String> with(String name, String value) {
        Map<String, String> settings = new HashMap<>();
        settings.put("operations", DEBITS);
        settings.put(name, value);
        return settings;
    }

    /** Parsing fails, and the message names every one of {@code mentions}. */
    private static void assertRefused(Map<String, String> settings, String... mentions) {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> SettingsParser.parse(settings));
        for (String mention : mentions) {
            assertTrue(e.getMessage().contains(mention), "message should mention '" + mention + "': " + e.getMessage());
        }
    }

    // Operations

    @Test
    void parsesOperationsSeparatedByNewlines() {
        IdempotencyConfig config = SettingsParser.parse(Map.of(
                "operations",
                "\n    POST /api/accounts/{id}/debits = debit:v1\n    PUT /api/orders/{id} = order:v2\n\n  "));

        assertEquals(
                List.of("POST /api/accounts/{id}/debits = debit:v1", "PUT /api/orders/{id} = order:v2"),
                config.operations().stream().map(Operation::toString).toList());
    }

    @Test
    void parsesOperationsSeparatedBySemicolons() {
        IdempotencyConfig config =
                SettingsParser.parse(Map.of("operations", "POST /a = a:v1; DELETE /b/{id} = b:v1;PATCH /c = c:v3;"));

        assertEquals(
                List.of("POST", "DELETE", "PATCH"),
                config.operations().stream().map(Operation::method).toList());
        assertEquals(
                List.of("a:v1", "b:v1", "c:v3"),
                config.operations().stream().map(Operation::contract).toList());
    }

    @Test
    void parsesOperationsWithWindowsLineEndings() {
        IdempotencyConfig config = SettingsParser.parse(Map.of("operations", "POST /a = a:v1\r\nPUT /b = b:v1\r\n"));

        assertEquals(2, config.operations().size());
        assertEquals("a:v1", config.operations().get(0).contract());
    }

    @Test
    void findsTheOperationForMethodAndPath() {
        IdempotencyConfig config = SettingsParser.parse(Map.of("operations", DEBITS + "\nPOST /api/orders = order:v1"));

        assertEquals(
                Optional.of("debit:v1"),
                config.operationFor("POST", "/api/accounts/7/debits").map(Operation::contract));
        assertEquals(
                Optional.of("order:v1"),
                config.operationFor("POST", "/api/orders").map(Operation::contract));
        assertEquals(Optional.empty(), config.operationFor("PUT", "/api/orders"));
        assertEquals(Optional.empty(), config.operationFor("POST", "/api/orders/1"));
    }

    @Test
    void firstMatchingOperationWins() {
        IdempotencyConfig config =
                SettingsParser.parse(Map.of("operations", "POST /a/{id} = first:v1\nPOST /a/b = second:v1"));

        assertEquals(
                Optional.of("first:v1"), config.operationFor("POST", "/a/b").map(Operation::contract));
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET", "HEAD", "OPTIONS", "TRACE", "get", "Head"})
    void refusesSafeMethodsNamingThem(String method) {
        assertRefused(Map.of("operations", method + " /api/accounts = list:v1"), "operations", method);
    }

    @Test
    void refusesTheSameMethodAndTemplateMappedTwice() {
        assertRefused(
                Map.of("operations", DEBITS + "\nPOST /api/accounts/{id}/debits = debit:v2"),
                "operations",
                "POST /api/accounts/{id}/debits",
                "debit:v1",
                "debit:v2");
    }

    @Test
    void refusesTheSameTemplateSpelledWithAnotherVariableName() {
        assertRefused(
                Map.of("operations", DEBITS + "\nPOST /api/accounts/{accountId}/debits = debit:v2"),
                "operations",
                "debit:v1",
                "debit:v2");
    }

    @Test
    void acceptsTheSameTemplateForDifferentMethods() {
        IdempotencyConfig config = SettingsParser.parse(
                Map.of("operations", "POST /api/orders/{id} = create:v1\nPUT /api/orders/{id} = replace:v1"));

        assertEquals(
                Optional.of("replace:v1"),
                config.operationFor("PUT", "/api/orders/1").map(Operation::contract));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "\n\n", " ; ;\n"})
    void refusesEmptyOperations(String operations) {
        assertRefused(Map.of("operations", operations), "operations");
    }

    @Test
    void refusesMissingOperations() {
        assertRefused(Map.of("retention", "PT1H"), "operations");
    }

    @Test
    void refusesAMalformedOperationLineQuotingIt() {
        assertRefused(Map.of("operations", "POST /api/accounts/{id}/debits debit:v1"), "operations", "debit:v1");
    }

    // Unknown settings

    @Test
    void rejectsUnknownSettingNamingIt() {
        assertRefused(with("retension", "PT1H"), "retension");
    }

    @Test
    void rejectsTheFilterOwnConfigFileParameter() {
        // The filter removes config-file before parsing; if it reached the parser it would be a mistake.
        assertRefused(with("config-file", "/WEB-INF/x.properties"), "config-file");
    }

    // Defaults

    @Test
    void appliesDefaultsWhenOnlyOperationsAreSet() {
        IdempotencyConfig config = SettingsParser.parse(Map.of("operations", DEBITS));

        assertAll(
                () -> assertEquals("Idempotency-Key", config.keyHeader()),
                () -> assertEquals(RolloutMode.OPTIONAL, config.rolloutMode()),
                () -> assertEquals(Duration.ofSeconds(5), config.rolloutRefresh()),
                () -> assertEquals(Optional.empty(), config.keylessSunset()),
                () -> assertEquals(Optional.empty(), config.keylessLink()),
                () -> assertEquals(Duration.ofMinutes(5), config.keylessLogInterval()),
                () -> assertEquals(Optional.empty(), config.dataSource()),
                () -> assertEquals(Optional.empty(), config.persistenceUnit()),
                () -> assertEquals(Optional.empty(), config.scopeHeader()),
                () -> assertEquals(Optional.empty(), config.database()),
                () -> assertEquals(1_048_576L, config.maxRequestBodyBytes()),
                () -> assertEquals(List.of("Content-Type", "Location"), config.storedHeaders()),
                () -> assertEquals("2xx", config.storableStatuses().toString()),
                () -> assertTrue(config.storableStatuses().isStorable(201)),
                () -> assertFalse(config.storableStatuses().isStorable(409)),
                () -> assertEquals(Duration.ofHours(24), config.retention()),
                () -> assertEquals(1_048_576L, config.maxResponseBodyBytes()),
                () -> assertEquals(Duration.ofSeconds(10), config.lockTimeout()),
                () -> assertEquals(Optional.empty(), config.transactionTimeout()));
    }

    @Test
    void parsesEverySetting() {
        Map<String, String> settings = new HashMap<>();
        settings.put("operations", DEBITS);
        settings.put("key-header", " X-Request-Key ");
        settings.put("rollout-mode", " required ");
        settings.put("rollout-refresh", "PT30S");
        settings.put("keyless-sunset", "2027-03-01T00:00:00Z");
        settings.put("keyless-link", "https://example.com/docs/keys");
        settings.put("keyless-log-interval", "PT1M");
        settings.put("datasource", " java:jboss/datasources/AppDS ");
        settings.put("scope-header", "X-Authenticated-User");
        settings.put("database", " PostgreSQL ");
        settings.put("max-request-body", "2048");
        settings.put("stored-headers", "Location, Content-Type, ETag, location,");
        settings.put("storable-statuses", "2xx, 422, 409");
        settings.put("retention", "P7D");
        settings.put("max-response-body", "4096");
        settings.put("lock-timeout", "PT3S");
        settings.put("transaction-timeout", "PT2M");

        IdempotencyConfig config = SettingsParser.parse(settings);

        assertAll(
                () -> assertEquals("X-Request-Key", config.keyHeader()),
                () -> assertEquals(RolloutMode.REQUIRED, config.rolloutMode()),
                () -> assertEquals(Duration.ofSeconds(30), config.rolloutRefresh()),
                () -> assertEquals(Optional.of(Instant.parse("2027-03-01T00:00:00Z")), config.keylessSunset()),
                () -> assertEquals(Optional.of(URI.create("https://example.com/docs/keys")), config.keylessLink()),
                () -> assertEquals(Duration.ofMinutes(1), config.keylessLogInterval()),
                () -> assertEquals(Optional.of("java:jboss/datasources/AppDS"), config.dataSource()),
                () -> assertEquals(Optional.of("X-Authenticated-User"), config.scopeHeader()),
                () -> assertEquals(Optional.of("postgresql"), config.database()),
                () -> assertEquals(2048L, config.maxRequestBodyBytes()),
                () -> assertEquals(List.of("Content-Type", "ETag", "Location"), config.storedHeaders()),
                () -> assertEquals("2xx, 409, 422", config.storableStatuses().toString()),
                () -> assertTrue(config.storableStatuses().isStorable(409)),
                () -> assertEquals(Duration.ofDays(7), config.retention()),
                () -> assertEquals(4096L, config.maxResponseBodyBytes()),
                () -> assertEquals(Duration.ofSeconds(3), config.lockTimeout()),
                () -> assertEquals(Optional.of(Duration.ofMinutes(2)), config.transactionTimeout()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"OFF", "optional", "Required", "drain"})
    void parsesEveryRolloutModeCaseInsensitively(String value) {
        assertEquals(
                RolloutMode.valueOf(value.toUpperCase(Locale.ROOT)),
                SettingsParser.parse(with("rollout-mode", value)).rolloutMode());
    }

    @Test
    void acceptsAKeylessLinkThatIsAnAbsolutePath() {
        assertEquals(
                Optional.of(URI.create("/docs/keys.html")),
                SettingsParser.parse(with("keyless-link", "/docs/keys.html")).keylessLink());
    }

    @Test
    void refusesTheRetiredKeylessRequestsSettingAsUnknown() {
        assertRefused(with("keyless-requests", "reject"), "keyless-requests");
    }

    // Malformed settings name the setting and the bad value

    @ParameterizedTest
    @ValueSource(strings = {"sometimes", "pass-through", "reject", "on"})
    void refusesUnknownRolloutMode(String value) {
        assertRefused(with("rollout-mode", value), "rollout-mode", value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"PT0.5S", "PT0S", "PT10M1S", "PT1H"})
    void refusesRolloutRefreshOutsideOneSecondToTenMinutes(String value) {
        assertRefused(with("rollout-refresh", value), "rollout-refresh", value);
    }

    @Test
    void refusesMalformedRolloutRefresh() {
        assertRefused(with("rollout-refresh", "5s"), "rollout-refresh", "5s");
    }

    @ParameterizedTest
    @ValueSource(strings = {"2027-03-01", "tomorrow", "2027-03-01T00:00:00"})
    void refusesKeylessSunsetThatIsNotAnInstant(String value) {
        assertRefused(with("keyless-sunset", value), "keyless-sunset", value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"docs/keys", "has space", "#fragment"})
    void refusesKeylessLinkThatIsNeitherAbsoluteNorAnAbsolutePath(String value) {
        assertRefused(with("keyless-link", value), "keyless-link", value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"PT9S", "PT0S"})
    void refusesKeylessLogIntervalBelowTenSeconds(String value) {
        assertRefused(with("keyless-log-interval", value), "keyless-log-interval", value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1023", "0", "-1"})
    void refusesMaxRequestBodyBelow1024(String value) {
        assertRefused(with("max-request-body", value), "max-request-body", value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1MB", "1e6", "lots", "99999999999999999999"})
    void refusesNonNumericMaxRequestBody(String value) {
        assertRefused(with("max-request-body", value), "max-request-body", value);
    }

    @Test
    void acceptsMaxRequestBodyOf1024() {
        assertEquals(
                1024L, SettingsParser.parse(with("max-request-body", "1024")).maxRequestBodyBytes());
    }

    @ParameterizedTest
    @ValueSource(strings = {"PT59S", "PT0S", "PT0.5S"})
    void refusesRetentionBelowOneMinute(String value) {
        assertRefused(with("retention", value), "retention", value);
    }

    @Test
    void refusesNegativeRetention() {
        assertRefused(with("retention", "-PT1H"), "retention");
    }

    @ParameterizedTest
    @ValueSource(strings = {"24h", "P1M", "1440", "PT"})
    void refusesMalformedRetention(String value) {
        assertRefused(with("retention", value), "retention", value);
    }

    @Test
    void acceptsRetentionOfOneMinute() {
        assertEquals(
                Duration.ofMinutes(1),
                SettingsParser.parse(with("retention", "PT1M")).retention());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Set-Cookie",
                "set-cookie",
                "Set-Cookie2",
                "Authorization",
                "WWW-Authenticate",
                "Proxy-Authenticate"
            })
    void refusesStoredHeadersThatCarryCredentials(String header) {
        assertRefused(with("stored-headers", "Content-Type, " + header + ", Location"), "stored-headers", header);
    }

    @Test
    void refusesStoredHeaderThatIsNotAHeaderName() {
        assertRefused(with("stored-headers", "Content-Type, Content Type"), "stored-headers", "Content Type");
    }

    @Test
    void refusesStorableStatusesWithA5xx() {
        assertRefused(with("storable-statuses", "2xx, 500"), "storable-statuses", "500");
    }

    @Test
    void refusesStorableStatusesWithout2xx() {
        assertRefused(with("storable-statuses", "409"), "storable-statuses", "2xx", "409");
    }

    @ParameterizedTest
    @ValueSource(strings = {"db2", "informix", ""})
    void refusesUnsupportedDatabase(String value) {
        assertRefused(with("database", value), "database", "'" + value + "'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1023", "0"})
    void refusesMaxResponseBodyBelow1024(String value) {
        assertRefused(with("max-response-body", value), "max-response-body", value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1MB", "lots"})
    void refusesNonNumericMaxResponseBody(String value) {
        assertRefused(with("max-response-body", value), "max-response-body", value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"lock-timeout", "transaction-timeout"})
    void refusesTimeoutsBelowOneSecondOrWithFractions(String setting) {
        for (String value : List.of("PT0S", "PT0.5S", "PT1.5S")) {
            assertRefused(with(setting, value), setting, value);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"lock-timeout", "transaction-timeout"})
    void refusesMalformedTimeouts(String setting) {
        for (String value : List.of("10s", "10", "PT")) {
            assertRefused(with(setting, value), setting, value);
        }
    }

    @Test
    void acceptsOneSecondTimeouts() {
        Map<String, String> settings = with("lock-timeout", "PT1S");
        settings.put("transaction-timeout", "PT1S");

        IdempotencyConfig config = SettingsParser.parse(settings);

        assertEquals(Duration.ofSeconds(1), config.lockTimeout());
        assertEquals(Optional.of(Duration.ofSeconds(1)), config.transactionTimeout());
    }

    @Test
    void refusesRetentionShorterThanTheTransactionTimeout() {
        Map<String, String> settings = with("retention", "PT1M");
        settings.put("transaction-timeout", "PT2M");

        assertRefused(settings, "retention", "transaction-timeout", "PT1M", "PT2M");
    }

    @Test
    void acceptsRetentionEqualToTheTransactionTimeout() {
        Map<String, String> settings = with("retention", "PT2M");
        settings.put("transaction-timeout", "PT120S");

        assertEquals(Duration.ofMinutes(2), SettingsParser.parse(settings).retention());
    }

    @Test
    void refusesKeyHeaderThatIsNotAHeaderName() {
        assertRefused(with("key-header", "Idempotency Key"), "key-header", "Idempotency Key");
    }

    @Test
    void refusesBlankDataSource() {
        assertRefused(with("datasource", "  "), "datasource");
    }

    @Test
    void refusesDataSourceAndPersistenceUnitTogether() {
        Map<String, String> settings = with("datasource", "java:/AppDS");
        settings.put("persistence-unit", "app");
        assertRefused(settings, "datasource and persistence-unit");
    }

    @Test
    void readsPersistenceUnit() {
        assertEquals(
                Optional.of("orders"),
                SettingsParser.parse(with("persistence-unit", "orders")).persistenceUnit());
    }

    @Test
    void refusesScopeHeaderThatIsNotAHeaderName() {
        assertRefused(with("scope-header", "X User"), "scope-header", "X User");
    }

    // scope-header-key

    @Test
    void scopeHeaderKeyIsUnsetByDefault() {
        IdempotencyConfig config = SettingsParser.parse(with("scope-header", "Authorization"));

        assertEquals(Optional.empty(), config.scopeHeaderKey());
        assertTrue(
                config.toString()
                        .contains(
                                "scope-header-key=none: a scope-header value is kept as its plain" + " SHA-256 digest"),
                config.toString());
    }

    @Test
    void readsScopeHeaderKeyFromBase64OrTheEnvironmentAndNeverShowsIt() {
        String base64 = "S2V5".repeat(11); // 33 bytes
        IdempotencyConfig given = SettingsParser.parse(with("scope-header-key", " " + base64 + " "));
        IdempotencyConfig named = SettingsParser.parse(
                with("scope-header-key", "env:SCOPE_KEY"), variable -> variable.equals("SCOPE_KEY") ? base64 : null);

        assertEquals(33, given.scopeHeaderKey().orElseThrow().getEncoded().length);
        assertEquals("HmacSHA256", given.scopeHeaderKey().orElseThrow().getAlgorithm());
        assertEquals(given.scopeHeaderKey(), named.scopeHeaderKey());
        assertTrue(given.toString().contains("scope-header-key=set"), given.toString());
        assertFalse(given.toString().contains("S2V5"), given.toString());
    }

    @Test
    void refusesAScopeHeaderKeyThatIsShortNotBase64OrAnUnsetVariable() {
        assertRefused(
                with("scope-header-key", "A".repeat(22) + "=="),
                "scope-header-key must be at least 32 bytes",
                "was 16",
                "openssl rand -base64 32");
        assertRefused(with("scope-header-key", "not base64!"), "scope-header-key is not valid Base64");
        assertRefused(
                with("scope-header-key", "env:NOT_SET"),
                "scope-header-key names the environment variable" + " NOT_SET, which is not set");
    }

    @Test
    void theStartUpLineShowsDefaultsInWordsAndKeysByIdOnly() {
        Map<String, String> settings = new HashMap<>();
        settings.put("operations", DEBITS + " encrypted");
        settings.put("encryption-keys", "k1=" + "A".repeat(43) + "=");
        String text = SettingsParser.parse(settings).toString();

        assertTrue(text.contains("encryption-keys=ids [k1] (sealing with k1)"), text);
        assertFalse(text.contains("AAAA"), text);
        assertTrue(text.contains("transaction-timeout=the container's default"), text);
        assertTrue(text.contains("datasource=the jta-data-source of the WAR's JTA persistence unit"), text);
        assertTrue(text.contains("lock-timeout=PT10S"), text);
    }

    @Test
    void describesTheConfigurationInOneLine() {
        String text = SettingsParser.parse(with("rollout-mode", "drain")).toString();

        assertTrue(text.contains("rollout-mode=DRAIN"), text);
        assertTrue(text.contains(DEBITS), text);
        assertFalse(text.contains("\n"), text);
    }

    // Operations that share a path

    @Test
    void entriesOnOnePathAreToldApartByTheirConditions() {
        IdempotencyConfig config = SettingsParser.parse(Map.of(
                "operations", "POST /app?action=buy = buy:v1; POST /app?action=sell = sell:v1; POST /other = o:v1"));

        assertEquals(
                Optional.of("buy:v1"),
                config.operationFor("POST", "/app", Map.of("action", "buy")::get)
                        .map(Operation::contract));
        assertEquals(
                Optional.of("sell:v1"),
                config.operationFor("POST", "/app", Map.of("action", "sell")::get)
                        .map(Operation::contract));
        assertEquals(Optional.empty(), config.operationFor("POST", "/app", Map.of("action", "login")::get));
        assertEquals(Optional.empty(), config.operationFor("POST", "/app"));
        assertTrue(config.hasConditionsOn("POST", "/app"));
        assertFalse(config.hasConditionsOn("POST", "/other"));
        assertFalse(config.hasConditionsOn("PUT", "/app"));
    }

    @Test
    void refusesAnEntryWithoutConditionsBesideOnesWithConditions() {
        assertRefused(
                with("operations", "POST /app = all:v1; POST /app?action=buy = buy:v1"),
                "'POST /app' (all:v1)",
                "'POST /app?action=buy' (buy:v1)",
                "give each entry on this path a condition");
    }

    @Test
    void refusesEntriesWhoseConditionsNameDifferentParametersAsAmbiguous() {
        assertRefused(
                with("operations", "POST /app?action=buy = buy:v1; POST /app?kind=stock = stock:v1"),
                "ambiguous",
                "buy:v1",
                "stock:v1");
    }

    @Test
    void refusesTwoEntriesWithTheSameConditions() {
        assertRefused(
                with("operations", "POST /app/{x}?action=buy = buy:v1; POST /app/{y}?action=buy = buy:v2"),
                "cover the same requests");
    }

    // One policy per contract

    @Test
    void resolvesEachOperationsPolicyOnceAgainstTheSettings() {
        Map<String, String> settings = new HashMap<>();
        settings.put(
                "operations",
                "POST /a = a:v1 retention=P7D after-expiry=refuse concurrent=reject replay-roles=clerk|auditor;"
                        + " POST /b = b:v1 key-field=token");
        settings.put("retention", "PT2H");
        settings.put("late-retry-window", "P3D");
        settings.put("key-field", "_key");

        IdempotencyConfig config = SettingsParser.parse(settings);

        assertEquals(
                new OperationPolicy(
                        "a:v1",
                        Duration.ofDays(7),
                        Duration.ofDays(3),
                        false,
                        Set.of("clerk", "auditor"),
                        Optional.of("_key")),
                config.policyOf(config.operations().get(0)));
        assertEquals(
                new OperationPolicy("b:v1", Duration.ofHours(2), Duration.ZERO, true, Set.of(), Optional.of("token")),
                config.policyOf(config.operations().get(1)));
    }

    @Test
    void refusesTwoEntriesOfOneContractWithDifferentReplayRolesNamingTheContractBothEntriesAndTheOption() {
        ConfigurationException e = assertThrows(
                ConfigurationException.class,
                () -> SettingsParser.parse(Map.of(
                        "operations", "POST /a = pay:v1 replay-roles=clerk ; POST /b = pay:v1 replay-roles=auditor")));

        assertEquals(
                "operations: 'POST /a = pay:v1 replay-roles=clerk' and 'POST /b = pay:v1 replay-roles=auditor' share"
                        + " the contract pay:v1 but differ in replay-roles (clerk and auditor); the records of a"
                        + " contract are one key space, kept and answered by one policy, so give both entries the"
                        + " same replay-roles, or give each its own contract",
                e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "retention=PT2H",
                "encrypted",
                "replay-roles=clerk",
                "concurrent=reject",
                "after-expiry=refuse",
                "key-field=_key"
            })
    void refusesTwoEntriesOfOneContractThatDifferInAnOptionOfItsRecords(String option) {
        Map<String, String> settings = with("operations", "POST /a = pay:v1; PUT /b/{id} = pay:v1 " + option);
        settings.put("encryption-keys", "k1=" + "A".repeat(43) + "=");

        assertRefused(
                settings,
                "'POST /a = pay:v1'",
                "'PUT /b/{id} = pay:v1 " + option + "'",
                "share the contract pay:v1 but differ in " + option.split("=")[0] + " (");
    }

    @Test
    void acceptsEntriesOfOneContractThatAgreeOnItsPolicyWhateverTheyLeaveOutOfTheComparison() {
        Map<String, String> settings = with(
                "operations",
                "POST /a = pay:v1 replay-roles=clerk|auditor ignore=/body/json/at;"
                        + " PUT /b/{id} = pay:v1 retention=P1D replay-roles=auditor|clerk");
        settings.put("retention", "P1D");

        IdempotencyConfig config = SettingsParser.parse(settings);

        assertEquals(
                config.policyOf(config.operations().get(0)),
                config.policyOf(config.operations().get(1)));
        assertEquals(
                Set.of("clerk", "auditor"),
                config.policyOf(config.operations().get(1)).replayRoles());
    }

    @Test
    void readsTheSchemaActionDefaultingToValidate() {
        assertEquals(
                SchemaAction.VALIDATE,
                SettingsParser.parse(with("operations", DEBITS)).schema());
        assertEquals(
                SchemaAction.CREATE,
                SettingsParser.parse(Map.of("operations", DEBITS, "schema", " Create "))
                        .schema());
        assertEquals(
                SchemaAction.NONE,
                SettingsParser.parse(Map.of("operations", DEBITS, "schema", "none"))
                        .schema());
        assertRefused(
                Map.of("operations", DEBITS, "schema", "update"), "schema", "validate, create or none", "'update'");
    }

    // Keyless history and readiness

    @Test
    void readsTheKeylessHistoryAndReadinessSettings() {
        Map<String, String> settings = with("keyless-history-days", "120");
        settings.put("readiness-quiet-days", "45");
        settings.put("keyless-duplicate-window", "PT30S");

        IdempotencyConfig config = SettingsParser.parse(settings);

        assertEquals(120, config.keylessHistoryDays());
        assertEquals(45, config.readinessQuietDays());
        assertEquals(Duration.ofSeconds(30), config.keylessDuplicateWindow());
    }

    @Test
    void keylessHistoryAndReadinessDefaultToNinetyAndThirtyDaysAndTenSeconds() {
        IdempotencyConfig config = SettingsParser.parse(Map.of("operations", DEBITS));

        assertEquals(90, config.keylessHistoryDays());
        assertEquals(30, config.readinessQuietDays());
        assertEquals(Duration.ofSeconds(10), config.keylessDuplicateWindow());
    }

    @Test
    void refusesAQuietPeriodLongerThanTheHistoryKept() {
        Map<String, String> settings = with("keyless-history-days", "20");
        settings.put("readiness-quiet-days", "30");

        assertRefused(settings, "readiness-quiet-days", "keyless-history-days (20)", "was 30");
    }

    @Test
    void refusesAKeylessHistoryShorterThanAWeek() {
        assertRefused(with("keyless-history-days", "6"), "keyless-history-days", "6");
    }

    @Test
    void refusesADuplicateWindowLongerThanAnHour() {
        assertRefused(with("keyless-duplicate-window", "PT2H"), "keyless-duplicate-window", "PT1H", "PT2H");
    }

    @Test
    void readsTheRetryHintsDefaultingToNone() {
        assertEquals(
                RetryHints.NONE,
                SettingsParser.parse(with("operations", DEBITS)).retryHints());
        assertEquals(
                RetryHints.SDK,
                SettingsParser.parse(Map.of("operations", DEBITS, "retry-hints", " SDK "))
                        .retryHints());
        assertRefused(Map.of("operations", DEBITS, "retry-hints", "stripe"), "retry-hints", "none, sdk", "'stripe'");
    }

    @Test
    void readsTheProblemErrorMemberDefaultingToNone() {
        assertEquals(
                ProblemErrorMember.NONE,
                SettingsParser.parse(with("operations", DEBITS)).problemErrorMember());
        assertEquals(
                ProblemErrorMember.STRIPE,
                SettingsParser.parse(Map.of("operations", DEBITS, "problem-error-member", "stripe"))
                        .problemErrorMember());
        assertRefused(
                Map.of("operations", DEBITS, "problem-error-member", "fern"),
                "problem-error-member",
                "none, stripe",
                "'fern'");
    }

    @Test
    void showsTheHintSettingsAsWritten() {
        String shown = SettingsParser.parse(Map.of("operations", DEBITS, "retry-hints", "sdk"))
                .toString();
        assertTrue(shown.contains("retry-hints=sdk"), shown);
        assertTrue(shown.contains("problem-error-member=none"), shown);
    }
}
