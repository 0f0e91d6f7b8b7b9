package dev.idempotency.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.ConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OperationTest {

    private static String refusal(String line) {
        return assertThrows(ConfigurationException.class, () -> Operation.parse(line))
                .getMessage();
    }

    @Test
    void parsesMethodTemplateAndContract() {
        Operation operation = Operation.parse("  POST   /api/accounts/{id}/debits   =   debit:v1  ");

        assertEquals("POST", operation.method());
        assertEquals("/api/accounts/{id}/debits", operation.path().toString());
        assertEquals("debit:v1", operation.contract());
        assertEquals("POST /api/accounts/{id}/debits = debit:v1", operation.toString());
    }

    @Test
    void upperCasesTheMethod() {
        assertEquals("PATCH", Operation.parse("patch /a = a:v1").method());
    }

    @Test
    void acceptsTabsBetweenMethodAndPath() {
        assertEquals("/a/b", Operation.parse("PUT\t/a/b=a.b_c-d:v1.2").path().toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET", "HEAD", "OPTIONS", "TRACE", "get", "options"})
    void refusesSafeMethods(String method) {
        String message = refusal(method + " /api/accounts = list:v1");

        assertTrue(message.contains("'" + method + "'"), message);
        assertTrue(message.startsWith("operations"), message);
    }

    @ParameterizedTest
    @ValueSource(strings = {"PO-ST", "POST1", "P*"})
    void refusesMethodsThatAreNotLetters(String method) {
        assertTrue(refusal(method + " /a = a:v1").contains(method));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "POST /a debit:v1",
                "POST = debit:v1",
                "/a = debit:v1",
                "POST /a /b = debit:v1",
                "POST /a = debit:v1 = x:v2",
                "POST /a = debit v1",
                "POST /a = debit:v1 ttl=P7D",
                " = "
            })
    void refusesMalformedLinesQuotingThem(String line) {
        String message = refusal(line);

        assertTrue(message.contains("'" + line.trim() + "'"), message);
        assertTrue(message.contains("malformed"), message);
    }

    @ParameterizedTest
    @ValueSource(strings = {"debit", "debit:", ":v1", "debit:v1:x", "debit:v/1"})
    void refusesContractsThatAreNotNameColonVersion(String contract) {
        String message = refusal("POST /a = " + contract);

        assertTrue(message.contains("contract"), message);
        assertTrue(message.contains("'" + contract + "'"), message);
    }

    @Test
    void refusesAnInvalidPathTemplate() {
        String message = refusal("POST api/accounts = a:v1");

        assertTrue(message.contains("'api/accounts'"), message);
    }

    @Test
    void matchesOnlyItsMethodAndTemplate() {
        Operation operation = Operation.parse("POST /api/accounts/{id}/debits = debit:v1");

        assertTrue(operation.matches("POST", "/api/accounts/1/debits"));
        assertFalse(operation.matches("PUT", "/api/accounts/1/debits"));
        assertFalse(operation.matches("post", "/api/accounts/1/debits"));
        assertFalse(operation.matches("POST", "/api/accounts/1/credits"));
    }

    @Test
    void readsAnOperationsOwnRetention() {
        Operation operation = Operation.parse("POST /api/accounts/{id}/debits = debit:v1 retention=P7D");

        assertEquals("debit:v1", operation.contract());
        assertEquals(java.time.Duration.ofDays(7), operation.retention());
    }

    @Test
    void refusesAMalformedRetentionNamingTheContract() {
        String message = refusal("POST /a = debit:v1 retention=7days");

        assertTrue(message.contains("debit:v1") && message.contains("7days"), message);
    }
}
