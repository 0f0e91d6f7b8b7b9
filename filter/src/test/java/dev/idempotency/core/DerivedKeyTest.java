package dev.idempotency.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.IdempotentExecution;
import dev.idempotency.servlet.IdempotencyKeyHeader;
import dev.idempotency.store.RequestResultId;
import dev.idempotency.testing.StrictProxy;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class DerivedKeyTest {
    private static final String KEY = "checkout-42-7f3c2a9e-1b4d-4c5e-9f60-123456789abc";

    private static String derive(String scope, String operation, String key, String label) {
        return DerivedKey.of(scope, operation, key, label);
    }

    @Test
    void isTheSameOnEveryRetryOfTheSameRequest() {
        assertEquals(derive("alice", "debit:v1", KEY, "payments"), derive("alice", "debit:v1", KEY, "payments"));
        // A retry runs in a new execution object: only the identity and the label count.
        IdempotentExecution first = new RunningExecution(new RequestResultId("alice", "debit:v1", KEY));
        IdempotentExecution retry = new RunningExecution(new RequestResultId("alice", "debit:v1", KEY));
        assertEquals(first.deriveKey("payments"), retry.deriveKey("payments"));
        assertEquals(derive("alice", "debit:v1", KEY, "payments"), first.deriveKey("payments"));
    }

    @Test
    void differsForEveryOtherScopeOperationKeyOrLabel() {
        String base = derive("alice", "debit:v1", KEY, "payments");
        assertNotEquals(base, derive("bob", "debit:v1", KEY, "payments"));
        assertNotEquals(base, derive("alice", "debit:v2", KEY, "payments"));
        assertNotEquals(base, derive("alice", "debit:v1", KEY + "x", "payments"));
        assertNotEquals(base, derive("alice", "debit:v1", KEY, "receipts"));
        assertNotEquals(base, derive("alice", "debit:v1", KEY, "Payments"));
    }

    @Test
    void partsCannotBeShiftedFromOneIntoAnother() {
        Set<String> keys = new HashSet<>(List.of(
                derive("ab", "c", "k", "l"),
                derive("a", "bc", "k", "l"),
                derive("a", "b", "ck", "l"),
                derive("a", "b", "c", "kl"),
                derive("a", "b", "c\u0000k", "l")));
        assertEquals(5, keys.size(), keys.toString());
    }

    @Test
    void isA43CharacterBase64UrlTokenTheFilterAcceptsAsAKey() throws Exception {
        IdempotencyKeyHeader header = new IdempotencyKeyHeader("Idempotency-Key");
        StrictProxy proxies = new StrictProxy();
        for (String key : List.of(
                derive("alice", "debit:v1", KEY, "payments"),
                derive("gateway:zoë", "débit:v1", "ключ", "платёж"),
                derive("a", "b", "x".repeat(255), "l"))) {
            assertEquals(DerivedKey.LENGTH, key.length(), key);
            assertTrue(key.matches("[A-Za-z0-9_-]{43}"), key);
            HttpServletRequest request = proxies.of(
                    HttpServletRequest.class, Map.of("getHeaders", args -> Collections.enumeration(List.of(key))));
            assertEquals(Optional.of(key), header.read(request));
        }
        assertEquals(List.of(), proxies.unexpectedCalls());
    }

    @Test
    void doesNotContainTheClientsKeyOrTheOtherParts() {
        String derived = derive("alice", "debit:v1", "checkout42", "payments");
        assertFalse(derived.contains("checkout42"), derived);
        assertFalse(derived.contains("alice"), derived);
        assertFalse(derived.contains("payments"), derived);
        // Short inputs too give a full digest, not an encoding of the input.
        assertEquals(DerivedKey.LENGTH, derive("a", "b", "k", "l").length());
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", " ", "\t"})
    void refusesAMissingLabel(String label) {
        IllegalArgumentException refusal =
                assertThrows(IllegalArgumentException.class, () -> derive("alice", "debit:v1", KEY, label));
        assertTrue(refusal.getMessage().contains("label"), refusal.getMessage());
    }
}
