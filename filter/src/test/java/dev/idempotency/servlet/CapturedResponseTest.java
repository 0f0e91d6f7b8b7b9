package dev.idempotency.servlet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.testing.StrictProxy;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link CapturedResponse#sendTo} and {@link ResponseWriter#send} on a response that records every call. */
class CapturedResponseTest {
    private PrintWriter sentWriter;
    private final StrictProxy proxies = new StrictProxy();
    private final List<String> calls = new ArrayList<>();
    private final ByteArrayOutputStream sent = new ByteArrayOutputStream();
    private final HttpServletResponse client = recordingResponse();

    private HttpServletResponse recordingResponse() {
        Map<String, StrictProxy.Answer> answers = new HashMap<>();
        answers.put("setStatus", args -> record("setStatus " + args[0]));
        answers.put("setContentType", args -> record("setContentType " + args[0]));
        answers.put("setHeader", args -> record("setHeader " + args[0] + ": " + args[1]));
        answers.put("addHeader", args -> record("addHeader " + args[0] + ": " + args[1]));
        answers.put("setContentLength", args -> record("setContentLength " + args[0]));
        answers.put("sendError", args -> record("sendError " + args[0] + (args.length > 1 ? " " + args[1] : "")));
        answers.put("flushBuffer", args -> record("flushBuffer"));
        answers.put("getWriter", args -> {
            record("getWriter");
            sentWriter = new PrintWriter(new OutputStreamWriter(sent, StandardCharsets.UTF_8));
            return sentWriter;
        });
        answers.put("getOutputStream", args -> {
            record("getOutputStream");
            return TestStreams.output(sent);
        });
        return proxies.of(HttpServletResponse.class, answers);
    }

    private Object record(String call) {
        calls.add(call);
        return null;
    }

    @AfterEach
    void noOtherMethodWasCalled() {
        assertEquals(List.of(), proxies.unexpectedCalls());
    }

    private static Map<String, List<String>> headers(String... namesAndValues) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.computeIfAbsent(namesAndValues[i], n -> new ArrayList<>()).add(namesAndValues[i + 1]);
        }
        return headers;
    }

    @Test
    void sendsStatusHeadersAndBody() throws Exception {
        byte[] body = "{\"id\":1}".getBytes(StandardCharsets.UTF_8);

        ResponseWriter.send(
                client,
                201,
                headers("Content-Type", "application/json", "Location", "/a/1", "X-A", "1", "X-A", "2"),
                body);

        assertEquals(
                List.of(
                        "setStatus 201",
                        "setContentType application/json",
                        "setHeader Location: /a/1",
                        "setHeader X-A: 1",
                        "addHeader X-A: 2",
                        "getOutputStream"),
                calls);
        assertArrayEquals(body, sent.toByteArray());
    }

    @Test
    void storedContentLengthIsNotSentSoTheContainerFramesTheBody() throws Exception {
        byte[] body = {1, 2, 3, 4, 5};

        ResponseWriter.send(client, 200, headers("Content-Length", "999", "content-length", "1"), body);

        assertTrue(calls.stream().noneMatch(call -> call.startsWith("setContentLength")), calls.toString());
        assertTrue(calls.stream().noneMatch(call -> call.toLowerCase().contains("999")), calls.toString());
        assertTrue(
                calls.stream().noneMatch(call -> call.startsWith("addHeader") || call.startsWith("setHeader")),
                calls.toString());
        assertArrayEquals(body, sent.toByteArray());
    }

    @Test
    void storedTransferEncodingIsNotSent() throws Exception {
        ResponseWriter.send(
                client,
                200,
                headers("Transfer-Encoding", "chunked", "transfer-encoding", "gzip", "X-Kept", "k"),
                new byte[] {9});

        assertTrue(
                calls.stream().noneMatch(call -> call.toLowerCase().contains("transfer-encoding")), calls.toString());
        assertTrue(calls.contains("setHeader X-Kept: k"), calls.toString());
    }

    @Test
    void storedHeaderReplacesAContainerHeaderOfTheSameNameRatherThanAddingToIt() throws Exception {
        ResponseWriter.send(client, 200, headers("Cache-Control", "no-store", "Cache-Control", "private"), new byte[0]);

        List<String> headerCalls =
                calls.stream().filter(call -> call.contains("Cache-Control")).toList();
        assertEquals(List.of("setHeader Cache-Control: no-store", "addHeader Cache-Control: private"), headerCalls);
    }

    @Test
    void emptyBodyIsSentWithoutFramingOfTheFiltersOwn() throws Exception {
        ResponseWriter.send(client, 204, Map.of(), new byte[0]);

        assertEquals(List.of("setStatus 204", "getOutputStream"), calls);
        assertEquals(0, sent.size());
    }

    @Test
    void capturedResponseIsSentAsCaptured() throws Exception {
        byte[] body = "created".getBytes(StandardCharsets.US_ASCII);
        CapturedResponse captured = new CapturedResponse(
                201,
                headers("Content-Type", "text/plain;charset=UTF-8", "Location", "/a/1", "Transfer-Encoding", "chunked"),
                body,
                null,
                false,
                null);

        captured.sendTo(client);

        assertEquals(
                List.of(
                        "setStatus 201",
                        "setContentType text/plain;charset=UTF-8",
                        "setHeader Location: /a/1",
                        "getOutputStream"),
                calls);
        assertArrayEquals(body, sent.toByteArray());
    }

    @Test
    void capturedSendErrorIsSentAsSendErrorWithItsHeaders() throws Exception {
        CapturedResponse captured = new CapturedResponse(
                409, headers("X-Reason", "balance"), new byte[0], "insufficient balance", false, null);

        captured.sendTo(client);

        assertEquals(List.of("addHeader X-Reason: balance", "sendError 409 insufficient balance"), calls);
        assertEquals(0, sent.size());
    }

    @Test
    void capturedSendErrorWithoutMessageLetsTheContainerChooseIt() throws Exception {
        new CapturedResponse(404, Map.of(), new byte[0], "", false, null).sendTo(client);

        assertEquals(List.of("sendError 404 null"), calls);
    }

    @Test
    void whatTheApplicationWroteReachesTheClientByteForByte() throws Exception {
        HttpServletResponse untouchable = new StrictProxy().of(HttpServletResponse.class, Map.of());
        CapturingResponseWrapper wrapper = new CapturingResponseWrapper(untouchable, 1024);
        wrapper.setStatus(201);
        wrapper.setContentType("application/json;charset=UTF-8");
        wrapper.setHeader("Location", "/a/1");
        wrapper.getWriter().print("{\"memo\":\"é\"}");

        wrapper.captured().sendTo(client);
        sentWriter.flush();
        assertTrue(calls.contains("getWriter"), "written text goes through the container's writer: " + calls);

        byte[] expected = "{\"memo\":\"é\"}".getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(expected, sent.toByteArray());
        assertTrue(calls.contains("setContentType application/json;charset=UTF-8"), calls.toString());
        assertTrue(calls.contains("setStatus 201"), calls.toString());
    }
}
