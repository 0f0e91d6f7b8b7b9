package dev.idempotency.servlet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.testing.StrictProxy;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

    /**
     * Written text reaches the container's writer in pieces, not as one string of the whole body, and as exactly the
     * characters that string had: malformed and unmappable input replaced the same way, and no piece ending in half
     * of a surrogate pair.
     */
    @ParameterizedTest
    @ValueSource(strings = {"UTF-8", "UTF-16", "UTF-32", "ISO-8859-1", "windows-1252", "GB18030"})
    void textGoesToTheWriterInPiecesWithTheCharactersOfOneStringOfTheBody(String charsetName) throws Exception {
        Charset charset = Charset.forName(charsetName);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; bytes.size() < 100_000; i++) {
            bytes.writeBytes(("é😀€x" + i).getBytes(charset));
            if (i % 97 == 0) {
                bytes.write(0xFF); // malformed in UTF-8, UTF-16 and UTF-32
            }
            if (i % 89 == 0) {
                bytes.write(0x81); // unmapped in windows-1252
            }
            if (i % 83 == 0) {
                bytes.write(0xF0); // a UTF-8 sequence cut short
            }
        }
        byte[] body = bytes.toByteArray();
        List<Integer> pieces = new ArrayList<>();
        StringBuilder received = new StringBuilder();
        List<Integer> endingInAHalfPair = new ArrayList<>();
        Writer container = new Writer() {
            @Override
            public void write(char[] chars, int offset, int length) {
                pieces.add(length);
                received.append(chars, offset, length);
                if (length > 0 && Character.isHighSurrogate(chars[offset + length - 1])) {
                    endingInAHalfPair.add(pieces.size() - 1);
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        HttpServletResponse response = proxies.of(
                HttpServletResponse.class,
                Map.of("setStatus", args -> null, "getWriter", args -> new PrintWriter(container)));

        ResponseWriter.send(response, 200, Map.of(), body, charsetName);

        assertEquals(new String(body, charset), received.toString());
        assertTrue(pieces.size() > 1, pieces.toString());
        assertTrue(Collections.max(pieces) <= ResponseWriter.TEXT_PIECE_CHARS, "a piece of " + Collections.max(pieces));
        assertEquals(List.of(), endingInAHalfPair);
    }
}
