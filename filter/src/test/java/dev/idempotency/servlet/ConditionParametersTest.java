package dev.idempotency.servlet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.idempotency.testing.StrictProxy;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ConditionParametersTest {
    private final StrictProxy proxies = new StrictProxy();

    private HttpServletRequest request(String contentType, String query, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        Map<String, StrictProxy.Answer> answers = new HashMap<>();
        answers.put("getContentType", args -> contentType);
        answers.put("getQueryString", args -> query);
        answers.put("getContentLengthLong", args -> (long) bytes.length);
        answers.put("getInputStream", args -> TestStreams.input(bytes));
        answers.put("getCharacterEncoding", args -> null);
        return proxies.of(HttpServletRequest.class, answers);
    }

    @AfterEach
    void onlyAnsweredMethodsWereCalled() {
        assertEquals(List.of(), proxies.unexpectedCalls());
    }

    @Test
    void readsAFormBodyOnceAndHandsOnACopyTheApplicationStillReads() throws Exception {
        ConditionParameters parameters = ConditionParameters.of(
                request("application/x-www-form-urlencoded; charset=UTF-8", null, "action=buy&quantity=3"), 1024);

        assertEquals("buy", parameters.parameter("action"));
        BufferedBodyRequest handedOn = (BufferedBodyRequest) parameters.request();
        assertEquals("3", handedOn.getParameter("quantity"));
        assertArrayEquals(
                "action=buy&quantity=3".getBytes(StandardCharsets.UTF_8),
                handedOn.body().toByteArray());
        assertSame(handedOn, BufferedBodyRequest.read(handedOn, 1024));
    }

    @Test
    void theQueryStringComesBeforeTheBodyAsWithGetParameter() throws Exception {
        ConditionParameters parameters =
                ConditionParameters.of(request("application/x-www-form-urlencoded", "action=sell", "action=buy"), 1024);

        assertEquals("sell", parameters.parameter("action"));
    }

    @Test
    void otherBodiesAreNotReadOnlyTheirQueryStringCounts() throws Exception {
        Map<String, StrictProxy.Answer> answers = new HashMap<>();
        answers.put("getContentType", args -> "multipart/form-data; boundary=x");
        answers.put("getQueryString", args -> "action=buy%20now&x");
        HttpServletRequest multipart = proxies.of(HttpServletRequest.class, answers);

        ConditionParameters parameters = ConditionParameters.of(multipart, 1024);

        assertEquals("buy now", parameters.parameter("action"));
        assertEquals("", parameters.parameter("x"));
        assertNull(parameters.parameter("quantity"));
        assertSame(multipart, parameters.request());
    }

    @Test
    void aFormBodyOverTheLimitIsRefusedAsTooLarge() {
        ProblemException e = assertThrows(
                ProblemException.class,
                () -> ConditionParameters.of(
                        request("application/x-www-form-urlencoded", null, "a=" + "x".repeat(2000)), 1024));

        assertEquals(Problem.REQUEST_TOO_LARGE, e.problem());
    }
}
