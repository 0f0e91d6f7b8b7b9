package dev.idempotency.servlet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.testing.StrictProxy;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CapturingResponseWrapperTest {
    private final StrictProxy proxies = new StrictProxy();
    /** The client's response: any call on it fails the test, because nothing may reach the client. */
    private final HttpServletResponse client = proxies.of(
            HttpServletResponse.class,
            Map.<String, StrictProxy.Answer>of("getCharacterEncoding", args -> "ISO-8859-1"));

    private final CapturingResponseWrapper wrapper = new CapturingResponseWrapper(client, 1024 * 1024);

    @AfterEach
    void nothingReachedTheClient() {
        assertEquals(List.of(), proxies.unexpectedCalls());
    }

    private byte[] body() {
        return wrapper.captured().body();
    }

    // Status

    @Test
    void statusDefaultsTo200() {
        assertEquals(200, wrapper.getStatus());
        assertEquals(200, wrapper.captured().status());
    }

    @Test
    void capturesTheStatus() {
        wrapper.setStatus(201);

        assertEquals(201, wrapper.getStatus());
        assertEquals(201, wrapper.captured().status());
        assertNull(wrapper.captured().errorMessage());
    }

    @Test
    void capturesTheStatusServlet4SetsWithAReasonPhrase() {
        wrapper.setStatus(201, "Created");

        assertEquals(201, wrapper.captured().status());
        assertNull(wrapper.captured().errorMessage());
    }

    // Headers

    @Test
    void addHeaderAppendsAndSetHeaderReplaces() {
        wrapper.addHeader("X-Trace", "1");
        wrapper.addHeader("X-Trace", "2");

        assertEquals(List.of("1", "2"), List.copyOf(wrapper.getHeaders("X-Trace")));
        assertEquals("1", wrapper.getHeader("X-Trace"));

        wrapper.setHeader("X-Trace", "3");

        assertEquals(List.of("3"), List.copyOf(wrapper.getHeaders("X-Trace")));
        assertEquals(Map.of("X-Trace", List.of("3")), wrapper.captured().headers());
    }

    @Test
    void headerNamesAreCaseInsensitive() {
        wrapper.addHeader("X-Trace", "1");
        wrapper.addHeader("x-trace", "2");

        assertEquals(List.of("1", "2"), List.copyOf(wrapper.getHeaders("X-TRACE")));
        assertTrue(wrapper.containsHeader("x-TRACE"));
        assertEquals(Map.of("X-Trace", List.of("1", "2")), wrapper.captured().headers());

        wrapper.setHeader("X-TRACE", "3");

        assertEquals(List.of("X-TRACE"), List.copyOf(wrapper.getHeaderNames()));
        assertEquals(Map.of("X-TRACE", List.of("3")), wrapper.captured().headers());
    }

    @Test
    void setHeaderWithNullRemovesIt() {
        wrapper.addHeader("X-Trace", "1");

        wrapper.setHeader("x-trace", null);

        assertFalse(wrapper.containsHeader("X-Trace"));
        assertNull(wrapper.getHeader("X-Trace"));
        assertEquals(Map.of(), wrapper.captured().headers());
    }

    @Test
    void keepsHeadersInTheOrderFirstSet() {
        wrapper.setHeader("B", "1");
        wrapper.setHeader("A", "2");
        wrapper.addHeader("C", "3");
        wrapper.addHeader("b", "4");

        assertEquals(
                List.of("B", "A", "C"), List.copyOf(wrapper.captured().headers().keySet()));
        assertEquals(List.of("B", "A", "C"), List.copyOf(wrapper.getHeaderNames()));
    }

    @Test
    void intAndDateHeadersAreCapturedAsText() {
        wrapper.setIntHeader("Retry-After", 5);
        wrapper.addIntHeader("X-Count", 1);
        wrapper.addIntHeader("X-Count", 2);
        wrapper.setDateHeader("Last-Modified", 1_445_412_480_000L); // 2015-10-21T07:28:00Z

        assertEquals("5", wrapper.getHeader("Retry-After"));
        assertEquals(List.of("1", "2"), List.copyOf(wrapper.getHeaders("X-Count")));
        assertEquals("Wed, 21 Oct 2015 07:28:00 GMT", wrapper.getHeader("Last-Modified"));
    }

    @Test
    void dateHeadersUseImfFixdateWithTwoDigitDays() {
        wrapper.setDateHeader("Expires", 0L);

        assertEquals("Thu, 01 Jan 1970 00:00:00 GMT", wrapper.getHeader("Expires"));
    }

    @Test
    void contentLengthIsNotCaptured() {
        wrapper.setContentLength(10);
        wrapper.setContentLengthLong(10L);

        assertFalse(wrapper.containsHeader("Content-Length"));
        assertEquals(Map.of(), wrapper.captured().headers());
    }

    @Test
    void localeBecomesContentLanguage() {
        wrapper.setLocale(Locale.forLanguageTag("de-CH"));

        assertEquals("de-CH", wrapper.getHeader("Content-Language"));
    }

    // Content type and character encoding

    @Test
    void contentTypeSetAsHeaderIsTheContentType() {
        wrapper.setHeader("content-type", "application/json;charset=UTF-8");

        assertEquals("application/json;charset=UTF-8", wrapper.getContentType());
        assertEquals("UTF-8", wrapper.getCharacterEncoding());
        assertEquals("application/json;charset=UTF-8", wrapper.getHeader("Content-Type"));
        assertTrue(wrapper.containsHeader("CONTENT-TYPE"));
        assertEquals(
                Map.of("Content-Type", List.of("application/json;charset=UTF-8")),
                wrapper.captured().headers());
    }

    @Test
    void contentTypeAddedAsHeaderReplacesTheContentType() {
        wrapper.addHeader("Content-Type", "text/plain");
        wrapper.addHeader("Content-Type", "text/html");

        assertEquals(List.of("text/html"), List.copyOf(wrapper.getHeaders("content-type")));
        assertEquals(
                Map.of("Content-Type", List.of("text/html")), wrapper.captured().headers());
    }

    @Test
    void contentTypeComesFirstInTheCapturedHeaders() {
        wrapper.setHeader("Location", "/x");
        wrapper.setContentType("application/json");

        assertEquals(
                List.of("Content-Type", "Location"),
                List.copyOf(wrapper.captured().headers().keySet()));
        assertEquals(List.of("Content-Type", "Location"), List.copyOf(wrapper.getHeaderNames()));
    }

    @Test
    void setContentTypeCapturesMediaTypeAndCharset() {
        wrapper.setContentType("text/html; charset=\"utf-8\"; level=1");

        assertEquals("text/html;level=1;charset=utf-8", wrapper.getContentType());
        assertEquals("utf-8", wrapper.getCharacterEncoding());
    }

    @Test
    void setCharacterEncodingAddsTheCharsetToTheContentType() {
        wrapper.setContentType("text/plain");
        wrapper.setCharacterEncoding("UTF-8");

        assertEquals("text/plain;charset=UTF-8", wrapper.getContentType());
        assertEquals(
                List.of("text/plain;charset=UTF-8"),
                wrapper.captured().headers().get("Content-Type"));
    }

    @Test
    void characterEncodingDefaultsToIso88591AndNoContentTypeIsCaptured() {
        assertEquals("ISO-8859-1", wrapper.getCharacterEncoding());
        assertNull(wrapper.getContentType());
        assertFalse(wrapper.containsHeader("Content-Type"));
        assertEquals(Map.of(), wrapper.captured().headers());
    }

    // Body

    @Test
    void capturesTheOutputStream() throws Exception {
        ServletOutputStream out = wrapper.getOutputStream();
        out.write(new byte[] {1, 2, 3});
        out.write(4);

        assertSame(out, wrapper.getOutputStream());
        assertArrayEquals(new byte[] {1, 2, 3, 4}, body());
    }

    @Test
    void outputStreamAfterWriterIsIllegal() {
        wrapper.getWriter();

        assertThrows(IllegalStateException.class, wrapper::getOutputStream);
    }

    @Test
    void writerAfterOutputStreamIsIllegal() {
        wrapper.getOutputStream();

        assertThrows(IllegalStateException.class, wrapper::getWriter);
    }

    @Test
    void writerUsesIso88591ByDefault() {
        PrintWriter writer = wrapper.getWriter();
        writer.print("é");

        assertSame(writer, wrapper.getWriter());
        assertArrayEquals(new byte[] {(byte) 0xE9}, body());
        assertEquals("ISO-8859-1", wrapper.getCharacterEncoding());
    }

    @Test
    void writerUsesUtf8WhenSetByCharacterEncoding() {
        wrapper.setCharacterEncoding("UTF-8");
        wrapper.getWriter().print("é€");

        assertArrayEquals("é€".getBytes(StandardCharsets.UTF_8), body());
    }

    @Test
    void writerUsesTheCharsetOfTheContentType() {
        wrapper.setContentType("application/json; charset=UTF-8");
        wrapper.getWriter().print("é");

        assertArrayEquals("é".getBytes(StandardCharsets.UTF_8), body());
    }

    @Test
    void charsetCannotChangeOnceTheWriterExists() {
        wrapper.setContentType("text/plain");
        PrintWriter writer = wrapper.getWriter();

        wrapper.setCharacterEncoding("UTF-8");
        wrapper.setContentType("text/html;charset=UTF-8");
        writer.print("é");

        assertEquals("ISO-8859-1", wrapper.getCharacterEncoding());
        assertEquals("text/html;charset=ISO-8859-1", wrapper.getContentType());
        assertArrayEquals(new byte[] {(byte) 0xE9}, body());
    }

    @Test
    void capturedFlushesThePendingWriterText() {
        wrapper.getWriter().print("not flushed");

        assertEquals("not flushed", new String(body(), StandardCharsets.ISO_8859_1));
    }

    @Test
    void flushBufferDoesNotCommit() throws Exception {
        wrapper.getWriter().print("x");

        wrapper.flushBuffer();
        wrapper.getWriter().flush();

        assertFalse(wrapper.isCommitted());
        assertArrayEquals(new byte[] {'x'}, body());
    }

    @Test
    void flushingAndClosingTheStreamDoNotCommit() throws Exception {
        ServletOutputStream out = wrapper.getOutputStream();
        out.write('a');

        out.flush();
        wrapper.flushBuffer();
        out.close();

        assertFalse(wrapper.isCommitted());
        assertArrayEquals(new byte[] {'a'}, body());
    }

    @Test
    void setBufferSizeIsHarmless() {
        wrapper.setBufferSize(1);
        wrapper.getWriter().print("longer than one byte");

        assertFalse(wrapper.isCommitted());
        assertEquals("longer than one byte", new String(body(), StandardCharsets.ISO_8859_1));
    }

    // Reset

    @Test
    void resetClearsStatusHeadersContentTypeAndBody() throws Exception {
        wrapper.setStatus(500);
        wrapper.addHeader("X-Trace", "1");
        wrapper.setContentType("text/plain;charset=UTF-8");
        wrapper.getOutputStream().write(new byte[] {1, 2});

        wrapper.reset();
        wrapper.getOutputStream().write(3);

        CapturedResponse captured = wrapper.captured();
        assertEquals(200, captured.status());
        assertEquals(Map.of(), captured.headers());
        assertArrayEquals(new byte[] {3}, captured.body());
        assertNull(wrapper.getContentType());
        assertEquals("ISO-8859-1", wrapper.getCharacterEncoding());
        assertFalse(wrapper.containsHeader("X-Trace"));
    }

    @Test
    void resetClearsAnEarlierSendError() {
        wrapper.sendError(404, "gone");

        wrapper.reset();

        assertEquals(200, wrapper.captured().status());
        assertNull(wrapper.captured().errorMessage());
    }

    @Test
    void resetBufferClearsOnlyTheBody() {
        wrapper.setStatus(201);
        wrapper.setHeader("Location", "/a/1");
        wrapper.getWriter().print("discarded");

        wrapper.resetBuffer();
        wrapper.getWriter().print("kept");

        CapturedResponse captured = wrapper.captured();
        assertEquals(201, captured.status());
        assertEquals(Map.of("Location", List.of("/a/1")), captured.headers());
        assertEquals("kept", new String(captured.body(), StandardCharsets.ISO_8859_1));
    }

    @Test
    void resetAllowsTheOtherBodyApi() throws Exception {
        wrapper.getWriter().print("text");

        wrapper.reset();
        ServletOutputStream out = assertDoesNotThrow(wrapper::getOutputStream);
        out.write(7);

        assertArrayEquals(new byte[] {7}, body());
    }

    // sendError and sendRedirect

    @Test
    void sendErrorRecordsStatusAndMessageAndDropsTheBody() throws Exception {
        wrapper.setHeader("X-Trace", "1");
        wrapper.getOutputStream().write(new byte[] {1, 2, 3});

        wrapper.sendError(409, "insufficient balance");

        CapturedResponse captured = wrapper.captured();
        assertEquals(409, captured.status());
        assertEquals("insufficient balance", captured.errorMessage());
        assertArrayEquals(new byte[0], captured.body());
        assertEquals(Map.of("X-Trace", List.of("1")), captured.headers());
        assertFalse(wrapper.isCommitted());
    }

    @Test
    void sendErrorWithoutMessageRecordsAnEmptyMessage() {
        wrapper.sendError(404);

        assertEquals(404, wrapper.captured().status());
        assertEquals("", wrapper.captured().errorMessage());
    }

    @Test
    void sendRedirectGives302AndLocation() {
        wrapper.getWriter().print("discarded");

        wrapper.sendRedirect("/api/orders/1");

        CapturedResponse captured = wrapper.captured();
        assertEquals(302, captured.status());
        assertEquals(Map.of("Location", List.of("/api/orders/1")), captured.headers());
        assertArrayEquals(new byte[0], captured.body());
        assertNull(captured.errorMessage());
        assertFalse(wrapper.isCommitted());
    }

    @Test
    void servlet61RedirectWithAStatusIsCapturedWithThatStatus() {
        wrapper.getWriter().print("discarded");

        wrapper.sendRedirect("/api/orders/1", 303);

        CapturedResponse captured = wrapper.captured();
        assertEquals(303, captured.status());
        assertEquals(Map.of("Location", List.of("/api/orders/1")), captured.headers());
        assertArrayEquals(new byte[0], captured.body());
    }

    @Test
    void servlet61RedirectThatKeepsTheBufferKeepsTheBody() {
        wrapper.getWriter().print("kept");

        wrapper.sendRedirect("/api/orders/1", 307, false);

        CapturedResponse captured = wrapper.captured();
        assertEquals(307, captured.status());
        assertArrayEquals("kept".getBytes(StandardCharsets.ISO_8859_1), captured.body());
    }

    @Test
    void servlet61RedirectWithoutAStatusIsA302() {
        wrapper.sendRedirect("/api/orders/1", true);

        assertEquals(302, wrapper.captured().status());
    }

    @Test
    void servlet61CharsetObjectNamesTheWritersCharset() {
        wrapper.setContentType("text/plain");
        wrapper.setCharacterEncoding(StandardCharsets.UTF_8);
        wrapper.getWriter().print("é");

        assertArrayEquals("é".getBytes(StandardCharsets.UTF_8), body());
        assertEquals("text/plain;charset=UTF-8", wrapper.getContentType());
    }

    // Holding the body once

    @Test
    void theCapturedBodyIsTheCapturesOwnArrayNotACopy() throws Exception {
        wrapper.getOutputStream().write(new byte[300_000]);

        byte[] first = wrapper.captured().body();

        assertEquals(300_000, first.length);
        assertSame(first, wrapper.captured().body(), "copied again for the second capture");
    }

    @Test
    void writingAfterACaptureLeavesTheCapturedBodyAsItWas() throws Exception {
        wrapper.getOutputStream().write(new byte[] {1, 2, 3});
        CapturedResponse before = wrapper.captured();

        wrapper.getOutputStream().write(new byte[] {4});
        wrapper.resetBuffer();
        wrapper.getOutputStream().write(new byte[] {5, 6, 7});

        assertArrayEquals(new byte[] {1, 2, 3}, before.body());
        assertArrayEquals(new byte[] {5, 6, 7}, body());
    }

    // The capture limit

    @Test
    void bodyOfExactlyTheLimitIsNotOverflowed() throws Exception {
        CapturingResponseWrapper limited = new CapturingResponseWrapper(client, 1024);
        limited.getOutputStream().write(new byte[1000]);
        limited.getOutputStream().write(new byte[24]);

        CapturedResponse captured = limited.captured();
        assertFalse(captured.overflowed());
        assertEquals(1024, captured.body().length);
    }

    @Test
    void bodyBeyondTheLimitIsMarkedOverflowedAndNotHeldWhole() throws Exception {
        CapturingResponseWrapper limited = new CapturingResponseWrapper(client, 1024);
        limited.getOutputStream().write(new byte[1024]);
        limited.getOutputStream().write(0);

        CapturedResponse captured = limited.captured();
        assertTrue(captured.overflowed());
        assertTrue(captured.body().length <= 1024, "held " + captured.body().length);
    }

    @Test
    void writerBeyondTheLimitIsMarkedOverflowed() {
        CapturingResponseWrapper limited = new CapturingResponseWrapper(client, 1024);
        limited.getWriter().print("x".repeat(1025));

        assertTrue(limited.captured().overflowed());
    }

    @Test
    void overflowStaysEvenIfLaterWritesAreSmall() throws Exception {
        CapturingResponseWrapper limited = new CapturingResponseWrapper(client, 1024);
        limited.getOutputStream().write(new byte[2000]);
        limited.getOutputStream().write(1);

        CapturedResponse captured = limited.captured();
        assertTrue(captured.overflowed());
        assertEquals(0, captured.body().length);
    }

    @Test
    void resetAndResetBufferClearTheOverflow() throws Exception {
        CapturingResponseWrapper limited = new CapturingResponseWrapper(client, 1024);
        limited.getOutputStream().write(new byte[2000]);
        limited.resetBuffer();
        limited.getOutputStream().write(new byte[] {1, 2});

        assertFalse(limited.captured().overflowed());
        assertArrayEquals(new byte[] {1, 2}, limited.captured().body());

        limited.getOutputStream().write(new byte[2000]);
        limited.reset();

        assertFalse(limited.captured().overflowed());
        assertEquals(0, limited.captured().body().length);
    }

    @Test
    void sendErrorDiscardsAnOverflowedBody() throws Exception {
        CapturingResponseWrapper limited = new CapturingResponseWrapper(client, 1024);
        limited.getOutputStream().write(new byte[2000]);

        limited.sendError(500, "boom");

        assertFalse(limited.captured().overflowed());
        assertEquals(500, limited.captured().status());
    }

    // headersIn

    @Test
    void headersInKeepsOnlyAllowlistedHeadersCaseInsensitively() {
        wrapper.setContentType("application/json");
        wrapper.addHeader("Set-Cookie", "session=secret");
        wrapper.addHeader("location", "/a/1");
        wrapper.addHeader("X-Other", "x");

        Map<String, List<String>> kept = wrapper.captured().headersIn(List.of("CONTENT-TYPE", "Location"));

        Map<String, List<String>> expected = new LinkedHashMap<>();
        expected.put("Content-Type", List.of("application/json"));
        expected.put("location", List.of("/a/1"));
        assertEquals(expected, kept);
        assertEquals(List.of("Content-Type", "location"), List.copyOf(kept.keySet()));
    }

    @Test
    void headersInDropsSetCookieUnlessListed() {
        wrapper.addHeader("Set-Cookie", "session=secret");

        assertEquals(Map.of(), wrapper.captured().headersIn(List.of("Content-Type", "Location")));
        assertEquals(
                Map.of("Set-Cookie", List.of("session=secret")),
                wrapper.captured().headersIn(List.of("set-cookie")));
    }

    @Test
    void headersInWithEmptyAllowlistKeepsNothing() {
        wrapper.setContentType("text/plain");

        assertEquals(Map.of(), wrapper.captured().headersIn(List.of()));
    }

    // Includes

    @Test
    void anIncludedResourceChangesNeitherStatusNorHeadersButWritesTheBody() throws Exception {
        Map<String, Object> attributes = new HashMap<>();
        ServletRequest request = proxies.of(
                ServletRequest.class,
                Map.<String, StrictProxy.Answer>of("getAttribute", args -> attributes.get(args[0])));
        CapturingResponseWrapper capture = new CapturingResponseWrapper(client, 1024, request);
        capture.setContentType("text/html");
        capture.getWriter().print("<p>");

        attributes.put(RequestDispatcher.INCLUDE_REQUEST_URI, "/shop/WEB-INF/page.jsp");
        capture.setContentType("text/html;charset=ISO-8859-1");
        capture.setCharacterEncoding("UTF-8");
        capture.setStatus(500);
        capture.setHeader("X-Page", "1");
        capture.addHeader("X-Page", "2");
        capture.setLocale(java.util.Locale.GERMAN);
        capture.getWriter().print("included");
        attributes.remove(RequestDispatcher.INCLUDE_REQUEST_URI);
        capture.getWriter().print("</p>");

        CapturedResponse captured = capture.captured();
        assertEquals(200, captured.status());
        assertEquals(Map.of("Content-Type", List.of("text/html")), captured.headers());
        assertEquals("<p>included</p>", new String(captured.body(), StandardCharsets.ISO_8859_1));
        assertEquals("ISO-8859-1", captured.writerCharset(), "the application's own writer is sent as a writer");
    }

    @Test
    void theCapturedContentTypeIsTheApplicationsWithoutTheWritersImplicitCharset() throws Exception {
        wrapper.setContentType("text/html");
        wrapper.getWriter().print("é");

        assertEquals("text/html;charset=ISO-8859-1", wrapper.getContentType(), "as a real response reports it");
        CapturedResponse captured = wrapper.captured();
        assertEquals(List.of("text/html"), captured.headers().get("Content-Type"));
        assertEquals("ISO-8859-1", captured.writerCharset());
        assertArrayEquals(new byte[] {(byte) 0xE9}, captured.body());
    }

    @Test
    void theWriterUsesTheContainersDefaultCharsetWhenTheApplicationNamesNone() throws Exception {
        HttpServletResponse utf8ByDefault = proxies.of(
                HttpServletResponse.class, Map.<String, StrictProxy.Answer>of("getCharacterEncoding", args -> "UTF-8"));
        CapturingResponseWrapper capture = new CapturingResponseWrapper(utf8ByDefault, 1024);

        capture.getWriter().print("é");

        assertEquals("UTF-8", capture.captured().writerCharset());
        assertArrayEquals(
                "é".getBytes(StandardCharsets.UTF_8), capture.captured().body());
    }

    @Test
    void aWriterFirstAskedForByAnIncludedResourceIsSentAsBytes() throws Exception {
        ServletRequest including = proxies.of(
                ServletRequest.class,
                Map.<String, StrictProxy.Answer>of("getAttribute", args -> "/shop/WEB-INF/page.jsp"));
        CapturingResponseWrapper capture = new CapturingResponseWrapper(client, 1024, including);

        capture.getWriter().print("<p>page</p>");

        assertNull(capture.captured().writerCharset());
        assertEquals("<p>page</p>", new String(capture.captured().body(), StandardCharsets.ISO_8859_1));
    }
}
