package dev.idempotency.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.ConfigurationException;
import java.util.Map;
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

    // Conditions on request parameters

    @Test
    void readsConditionsWrittenLikeAQueryString() {
        Operation buy = Operation.parse("POST /app?action=buy&kind=stock%20order = buy:v1 retention=P7D");

        assertEquals("/app", buy.path().toString());
        assertEquals(Map.of("action", "buy", "kind", "stock order"), buy.conditions());
        assertEquals("POST /app?action=buy&kind=stock order = buy:v1 retention=PT168H", buy.toString());
    }

    @Test
    void meetsConditionsOnlyWhenEveryParameterHasItsValue() {
        Operation buy = Operation.parse("POST /app?action=buy&kind=stock = buy:v1");

        assertTrue(buy.meetsConditions(Map.of("action", "buy", "kind", "stock", "quantity", "3")::get));
        assertFalse(buy.meetsConditions(Map.of("action", "buy")::get));
        assertFalse(buy.meetsConditions(Map.of("action", "sell", "kind", "stock")::get));
        assertFalse(buy.meetsConditions(name -> null));
    }

    @Test
    void anOperationWithoutConditionsMeetsThemAlways() {
        Operation debit = Operation.parse("POST /debits = debit:v1");

        assertTrue(debit.conditions().isEmpty());
        assertTrue(debit.meetsConditions(name -> null));
        assertEquals("/debits", debit.route());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "POST /app? = a:v1",
                "POST /app?action = a:v1",
                "POST /app?action= = a:v1",
                "POST /app?=buy = a:v1",
                "POST /app?action=buy& = a:v1",
                "POST /app?a=b=c = a:v1"
            })
    void refusesMalformedConditionsSayingHowToWriteThem(String line) {
        String message = refusal(line);

        assertTrue(message.contains("malformed"), message);
    }

    @Test
    void refusesAParameterNamedTwice() {
        String message = refusal("POST /app?action=buy&action=sell = a:v1");

        assertTrue(message.contains("'action' twice"), message);
    }

    @Test
    void coversTheContextRoot() {
        Operation root = Operation.parse("POST / = create-item:v1");

        assertTrue(root.matches("POST", "/"));
        assertTrue(root.matches("POST", ""));
        assertFalse(root.matches("POST", "/items"));
    }

    @Test
    void parsesTheProtocolOptionsInAnyOrderAndShowsThemBack() {
        Operation operation = Operation.parse(
                "POST /pay = pay:v1 after-expiry=refuse ignore=/body/json/sentAt|/query/nonce concurrent=reject");

        assertEquals(Operation.Concurrency.REJECT, operation.concurrency());
        assertEquals(java.util.List.of("/body/json/sentAt", "/query/nonce"), operation.ignored());
        assertEquals(Operation.AfterExpiry.REFUSE, operation.afterExpiry());
        assertEquals(
                "POST /pay = pay:v1 concurrent=reject ignore=/body/json/sentAt|/query/nonce after-expiry=refuse",
                operation.toString());
    }

    @Test
    void theProtocolOptionsDefaultToWaitingNothingIgnoredAndRunningAgain() {
        Operation operation = Operation.parse("POST /pay = pay:v1");

        assertEquals(Operation.Concurrency.WAIT, operation.concurrency());
        assertEquals(java.util.List.of(), operation.ignored());
        assertEquals(Operation.AfterExpiry.RUN, operation.afterExpiry());
    }

    @Test
    void refusesAnUnknownProtocolChoiceNamingTheChoices() {
        assertTrue(
                refusal("POST /pay = pay:v1 concurrent=fail").contains("concurrent of pay:v1 must be wait or reject"));
        assertTrue(refusal("POST /pay = pay:v1 after-expiry=412")
                .contains("after-expiry of pay:v1 must be run or refuse"));
        assertTrue(
                refusal("POST /pay = pay:v1 concurrent=wait concurrent=reject").contains("each at most once"));
    }

    @Test
    void refusesMalformedReplayRolesNamingTheOptionAndTheValue() {
        String message = refusal("POST /pay = pay:v1 replay-roles=clerk||auditor");

        assertTrue(
                message.contains("replay-roles of pay:v1 must be role names separated by |")
                        && message.contains("'clerk||auditor'"),
                message);
    }

    @Test
    void theMalformedEntryMessageShowsEveryDeclaredOption() {
        String message = refusal("POST /pay = pay:v1 ttl=P7D");

        OperationOptions.ALL.forEach(option -> assertTrue(message.contains("'" + option.withExample() + "'"), message));
    }

    @Test
    void anOptionGivenItsDefaultIsNotShownBack() {
        assertEquals(
                "POST /pay = pay:v1",
                Operation.parse("POST /pay = pay:v1 concurrent=wait after-expiry=RUN")
                        .toString());
    }
}
