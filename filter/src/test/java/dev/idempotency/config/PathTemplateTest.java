package dev.idempotency.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.ConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PathTemplateTest {
    private final PathTemplate debits = PathTemplate.parse("/api/accounts/{id}/debits");

    @ParameterizedTest
    @ValueSource(strings = {"/api/accounts/1/debits", "/api/accounts/abc-DEF_9/debits", "/api/accounts/%7B%7D/debits"})
    void matchesAnyOneSegmentForAVariable(String path) {
        assertTrue(debits.matches(path), path);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/api/accounts/1/debits/",
                "/api/accounts//debits",
                "/api/accounts/1",
                "/api/accounts/1/2/debits",
                "/api/accounts/debits",
                "api/accounts/1/debits",
                "/api/accounts/1/debits/x",
                "//api/accounts/1/debits",
                "/API/accounts/1/debits",
                "/api/accounts/1/Debits",
                ""
            })
    void doesNotMatchOtherPaths(String path) {
        assertFalse(debits.matches(path), path);
    }

    @Test
    void literalTemplateMatchesOnlyItself() {
        PathTemplate orders = PathTemplate.parse("/api/orders");

        assertTrue(orders.matches("/api/orders"));
        assertFalse(orders.matches("/api/orders/"));
        assertFalse(orders.matches("/api/order"));
        assertFalse(orders.matches("/api/ordersx"));
    }

    @Test
    void variablesMayFollowEachOther() {
        PathTemplate nested = PathTemplate.parse("/{tenant}/{id}");

        assertTrue(nested.matches("/t/1"));
        assertFalse(nested.matches("/t"));
        assertFalse(nested.matches("/t/1/2"));
    }

    @Test
    void keepsItsTextForDisplay() {
        assertEquals("/api/accounts/{id}/debits", debits.toString());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "api/accounts",
                "",
                "/api//accounts",
                "/api/accounts/",
                "/api/{}",
                "/api/{id",
                "/api/id}",
                "/api/a{id}",
                "/api/{id}b",
                "/api/{{id}}",
                "/api/{i}d}"
            })
    void refusesMalformedTemplatesQuotingThem(String template) {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> PathTemplate.parse(template));

        assertTrue(e.getMessage().contains("'" + template + "'"), e.getMessage());
    }

    @Test
    void contextRootMatchesTheRootPathAsContainersHandItOver() {
        PathTemplate root = PathTemplate.parse("/");

        assertTrue(root.matches("/"));
        assertTrue(root.matches(""));
        assertFalse(root.matches("/items"));
        assertEquals("/", root.shape());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/./orders", "/api/../orders", "/api;v=1/orders", "/api/%64ebits", "/api/a#b"})
    void refusesTemplatesNoRequestPathCanMatchSayingWhy(String template) {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> PathTemplate.parse(template));

        assertTrue(e.getMessage().contains("can never match a request"), e.getMessage());
    }

    @Test
    void refusesATrailingSlashNamingTheSpellingThatCoversBoth() {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> PathTemplate.parse("/api/orders/"));

        assertTrue(e.getMessage().contains("write '/api/orders'"), e.getMessage());
    }
}
