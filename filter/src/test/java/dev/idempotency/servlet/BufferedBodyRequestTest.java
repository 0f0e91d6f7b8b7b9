package dev.idempotency.servlet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.testing.StrictProxy;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.Part;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BufferedBodyRequestTest {
    private static final String FORM = "application/x-www-form-urlencoded";

    private final StrictProxy proxies = new StrictProxy();

    /** A request double; {@code contentType}, {@code encoding} and {@code query} may be null. */
    private HttpServletRequest request(
            long declaredLength, ServletInputStream body, String contentType, String encoding, String query) {
        Map<String, StrictProxy.Answer> answers = new HashMap<>();
        answers.put("getContentLengthLong", args -> declaredLength);
        answers.put("getInputStream", args -> body);
        answers.put("getContentType", args -> contentType);
        answers.put("getCharacterEncoding", args -> encoding);
        answers.put("getQueryString", args -> query);
        answers.put("getParameterMap", args -> Map.of("fromContainer", new String[] {"yes"}));
        return proxies.of(HttpServletRequest.class, answers);
    }

    @AfterEach
    void onlyAnsweredMethodsWereCalled() {
        assertEquals(List.of(), proxies.unexpectedCalls());
    }

    private HttpServletRequest request(byte[] body, String contentType, String encoding, String query) {
        return request(body.length, TestStreams.input(body), contentType, encoding, query);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    // Reading the body

    @Test
    void bodyIsReadableThroughTheInputStreamAfterBuffering() throws Exception {
        byte[] body = bytes("{\"amount\":100}");

        BufferedBodyRequest buffered = BufferedBodyRequest.read(request(body, "application/json", null, null), 1024);

        assertArrayEquals(body, buffered.body().toByteArray());
        try (InputStream in = buffered.getInputStream()) {
            assertArrayEquals(body, in.readAllBytes());
        }
    }

    /**
     * As the container's own stream: Jersey asks for the stream again on every read (Payara), and must go on
     * where it stopped, not get the first bytes twice.
     */
    @Test
    void everyCallGetsTheSameStreamWhichGoesOnWhereItStopped() throws Exception {
        byte[] body = bytes("{\"amount\": 1}");
        BufferedBodyRequest buffered = BufferedBodyRequest.read(request(body, "application/json", null, null), 1024);

        assertEquals('{', buffered.getInputStream().read());
        assertSame(buffered.getInputStream(), buffered.getInputStream());
        assertEquals(body.length - 1, buffered.getInputStream().available());
        assertArrayEquals(bytes("\"amount\": 1}"), buffered.getInputStream().readAllBytes());
        assertArrayEquals(body, buffered.body().toByteArray());
    }

    @Test
    void bufferedStreamReportsWhenItIsFinished() throws Exception {
        BufferedBodyRequest buffered = BufferedBodyRequest.read(request(bytes("ab"), "text/plain", null, null), 1024);
        ServletInputStream in = buffered.getInputStream();

        assertTrue(in.isReady());
        assertFalse(in.isFinished());
        in.readAllBytes();
        assertTrue(in.isFinished());
    }

    @Test
    void bodyIsReadableThroughTheReaderInTheRequestCharset() throws Exception {
        BufferedBodyRequest buffered = BufferedBodyRequest.read(
                request(bytes("{\"memo\":\"é\"}\nsecond"), "application/json", "UTF-8", null), 1024);

        try (BufferedReader reader = buffered.getReader()) {
            assertEquals("{\"memo\":\"é\"}", reader.readLine());
            assertEquals("second", reader.readLine());
            assertNull(reader.readLine());
        }
    }

    @Test
    void readerDefaultsToIso88591() throws Exception {
        BufferedBodyRequest buffered =
                BufferedBodyRequest.read(request(new byte[] {(byte) 0xE9}, "text/plain", null, null), 1024);

        assertEquals("é", buffered.getReader().readLine());
    }

    @Test
    void readsABodyLargerThanOneReadBuffer() throws Exception {
        byte[] body = new byte[100_000];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) i;
        }

        BufferedBodyRequest buffered = BufferedBodyRequest.read(
                request(-1, TestStreams.input(body), "application/octet-stream", null, null), 100_000);

        assertArrayEquals(body, buffered.body().toByteArray());
    }

    @Test
    void emptyBodyIsEmpty() throws Exception {
        BufferedBodyRequest buffered = BufferedBodyRequest.read(request(new byte[0], null, null, null), 1024);

        assertEquals(0, buffered.body().size());
        assertEquals(-1, buffered.getInputStream().read());
    }

    // The size cap

    @Test
    void bodyOfExactlyTheCapIsAccepted() throws Exception {
        byte[] body = new byte[1024];

        assertEquals(
                1024,
                BufferedBodyRequest.read(request(body, "text/plain", null, null), 1024)
                        .body()
                        .size());
        assertEquals(
                1024,
                BufferedBodyRequest.read(request(-1, TestStreams.input(body), "text/plain", null, null), 1024)
                        .body()
                        .size());
    }

    @Test
    void uploadAbortedMidBodyIsRefusedAsIncomplete() {
        HttpServletRequest aborted =
                request(100, TestStreams.abortedAfter(new byte[40]), "application/json", null, null);

        ProblemException e = assertThrows(ProblemException.class, () -> BufferedBodyRequest.read(aborted, 1024));

        assertEquals(Problem.REQUEST_INCOMPLETE, e.problem());
        assertEquals(400, e.problem().status());
        assertTrue(e.detail().contains("40 bytes of the declared 100"), e.detail());
    }

    @Test
    void declaredLengthOverTheCapIsRefusedWithoutReading() {
        HttpServletRequest request = request(1025, TestStreams.unreadable(), "application/json", null, null);

        ProblemException e = assertThrows(ProblemException.class, () -> BufferedBodyRequest.read(request, 1024));

        assertEquals(Problem.REQUEST_TOO_LARGE, e.problem());
        assertEquals(413, e.problem().status());
        assertTrue(e.detail().contains("1024"), e.detail());
    }

    @Test
    void declaredLengthOverTheCapIsRefusedWithoutOpeningTheStream() {
        Map<String, StrictProxy.Answer> answers = Map.of("getContentLengthLong", args -> 10_000_000_000L);
        HttpServletRequest request = proxies.of(HttpServletRequest.class, answers);

        ProblemException e = assertThrows(ProblemException.class, () -> BufferedBodyRequest.read(request, 1024));

        assertEquals(Problem.REQUEST_TOO_LARGE, e.problem());
        assertEquals(List.of(), proxies.unexpectedCalls());
    }

    @Test
    void unknownLengthOverTheCapIsRefused() {
        HttpServletRequest chunked = request(-1, TestStreams.input(new byte[1025]), "application/json", null, null);

        ProblemException e = assertThrows(ProblemException.class, () -> BufferedBodyRequest.read(chunked, 1024));

        assertEquals(Problem.REQUEST_TOO_LARGE, e.problem());
    }

    @Test
    void bodyLongerThanItsDeclaredLengthIsStillCapped() {
        HttpServletRequest lying = request(10, TestStreams.input(new byte[5000]), "application/json", null, null);

        ProblemException e = assertThrows(ProblemException.class, () -> BufferedBodyRequest.read(lying, 1024));

        assertEquals(Problem.REQUEST_TOO_LARGE, e.problem());
    }

    @Test
    void stopsReadingAnEndlessBodySoonAfterTheCap() {
        AtomicLong delivered = new AtomicLong();
        ServletInputStream endless = new TestStreams.BlockingInput() {
            @Override
            public int read() {
                delivered.incrementAndGet();
                return 'x';
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (delivered.get() > 1_000_000) {
                    throw new AssertionError("kept reading far past the cap");
                }
                Arrays.fill(b, off, off + len, (byte) 'x');
                delivered.addAndGet(len);
                return len;
            }
        };

        ProblemException e = assertThrows(
                ProblemException.class,
                () -> BufferedBodyRequest.read(request(-1, endless, "application/json", null, null), 4096));

        assertEquals(Problem.REQUEST_TOO_LARGE, e.problem());
        assertTrue(delivered.get() <= 4096 + 8192, "read " + delivered.get() + " bytes");
    }

    @Test
    void declaredLengthBeyondIntRangeDoesNotCrash() throws Exception {
        HttpServletRequest request =
                request(2_147_483_648L, TestStreams.input(bytes("small")), "text/plain", null, null);

        try {
            BufferedBodyRequest.read(request, 3_000_000_000L);
        } catch (ProblemException acceptable) {
            assertEquals(Problem.REQUEST_TOO_LARGE, acceptable.problem());
        }
    }

    // Form parameters

    @Test
    void formParametersAreParsedFromTheBodyAndQuery() throws Exception {
        BufferedBodyRequest buffered =
                BufferedBodyRequest.read(request(bytes("a=1&b=x+y&c=%41&flag&&d="), FORM, null, "q=%3F&a=0"), 1024);

        assertEquals("0", buffered.getParameter("a"));
        assertArrayEquals(new String[] {"0", "1"}, buffered.getParameterValues("a"));
        assertEquals("x y", buffered.getParameter("b"));
        assertEquals("A", buffered.getParameter("c"));
        assertEquals("", buffered.getParameter("flag"));
        assertEquals("", buffered.getParameter("d"));
        assertEquals("?", buffered.getParameter("q"));
        assertNull(buffered.getParameter("missing"));
        assertNull(buffered.getParameterValues("missing"));
        assertEquals(List.of("q", "a", "b", "c", "flag", "d"), Collections.list(buffered.getParameterNames()));
    }

    @Test
    void formParametersUseTheRequestCharset() throws Exception {
        BufferedBodyRequest utf8 =
                BufferedBodyRequest.read(request(bytes("memo=%C3%A9"), FORM + "; charset=UTF-8", "UTF-8", null), 1024);
        BufferedBodyRequest latin1 = BufferedBodyRequest.read(request(bytes("memo=%E9"), FORM, null, null), 1024);

        assertEquals("é", utf8.getParameter("memo"));
        assertEquals("é", latin1.getParameter("memo"));
    }

    @Test
    void formContentTypeIsRecognizedCaseInsensitively() throws Exception {
        BufferedBodyRequest buffered =
                BufferedBodyRequest.read(request(bytes("a=1"), "Application/X-WWW-Form-Urlencoded", null, null), 1024);

        assertEquals("1", buffered.getParameter("a"));
    }

    @Test
    void malformedFormPairsAreSkipped() throws Exception {
        BufferedBodyRequest buffered =
                BufferedBodyRequest.read(request(bytes("a=%zz&b=1&%=2"), FORM, null, null), 1024);

        assertEquals(Map.of("b", List.of("1")), toLists(buffered.getParameterMap()));
    }

    @Test
    void formParameterMapCannotBeModified() throws Exception {
        BufferedBodyRequest buffered = BufferedBodyRequest.read(request(bytes("a=1"), FORM, null, null), 1024);
        Map<String, String[]> parameters = buffered.getParameterMap();

        assertThrows(UnsupportedOperationException.class, () -> parameters.put("b", new String[] {"2"}));
        buffered.getParameterValues("a")[0] = "changed";
        assertEquals("1", buffered.getParameter("a"));
    }

    @Test
    void otherContentTypesLeaveParametersToTheContainer() throws Exception {
        BufferedBodyRequest buffered =
                BufferedBodyRequest.read(request(bytes("a=1"), "application/json", null, "a=2"), 1024);

        assertEquals(Map.of("fromContainer", List.of("yes")), toLists(buffered.getParameterMap()));
        assertEquals("yes", buffered.getParameter("fromContainer"));
        assertNull(buffered.getParameter("a"));
    }

    private static Map<String, List<String>> toLists(Map<String, String[]> parameters) {
        Map<String, List<String>> lists = new HashMap<>();
        parameters.forEach((name, values) -> lists.put(name, List.of(values)));
        return lists;
    }

    // Multipart bodies, served from the buffer because the container's stream is consumed

    private static final String MULTIPART = "multipart/form-data; boundary=b1";
    private static final String MULTIPART_BODY = "--b1\r\nContent-Disposition: form-data; name=\"idempotency-key\"\r\n"
            + "\r\nk-1\r\n--b1\r\nContent-Disposition: form-data; name=\"amount\"\r\n\r\n100\r\n--b1\r\n"
            + "Content-Disposition: form-data; name=\"receipt\"; filename=\"r.txt\"\r\nContent-Type: text/plain\r\n"
            + "\r\nfile bytes\r\n--b1\r\nContent-Disposition: form-data; name=\"note\"\r\n"
            + "Content-Type: text/plain; charset=ISO-8859-1\r\n\r\n\u00e9\r\n--b1--\r\n";

    private BufferedBodyRequest multipartRequest(String query) throws Exception {
        return BufferedBodyRequest.read(
                request(MULTIPART_BODY.getBytes(StandardCharsets.ISO_8859_1), MULTIPART, null, query), 1024);
    }

    @Test
    void multipartPartsAreServedFromTheBufferedBody() throws Exception {
        BufferedBodyRequest request = multipartRequest(null);

        List<String> names = new ArrayList<>();
        request.getParts().forEach(part -> names.add(part.getName()));
        assertEquals(List.of("idempotency-key", "amount", "receipt", "note"), names);
        Part file = request.getPart("receipt");
        assertEquals("r.txt", file.getSubmittedFileName());
        assertEquals("text/plain", file.getContentType());
        assertEquals(10, file.getSize());
        assertArrayEquals(bytes("file bytes"), file.getInputStream().readAllBytes());
        assertEquals(List.of("Content-Disposition", "Content-Type"), List.copyOf(file.getHeaderNames()));
        assertEquals("text/plain", file.getHeader("content-type"));
        assertNull(request.getPart("missing"));
        assertNull(request.getPart("amount").getSubmittedFileName());
    }

    @Test
    void multipartTextPartsAreTheParametersWithTheQueryString() throws Exception {
        BufferedBodyRequest request = multipartRequest("amount=1");

        assertArrayEquals(new String[] {"1", "100"}, request.getParameterValues("amount"));
        assertEquals("k-1", request.getParameter("idempotency-key"));
        assertEquals("\u00e9", request.getParameter("note"));
        assertNull(request.getParameter("receipt"));
        assertEquals(List.of("k-1"), request.formBodyValues("idempotency-key"));
        // The application still reads every byte from the stream too.
        assertArrayEquals(
                MULTIPART_BODY.getBytes(StandardCharsets.ISO_8859_1),
                request.getInputStream().readAllBytes());
    }

    @Test
    void aMalformedMultipartBodyHasNoBodyParametersAndRefusesItsParts() throws Exception {
        BufferedBodyRequest request = BufferedBodyRequest.read(
                request(bytes("--b1\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1"), MULTIPART, null, null),
                1024);

        assertNull(request.getParameter("a"));
        assertEquals(List.of(), request.formBodyValues("a"));
        assertThrows(ServletException.class, request::getParts);
    }

    @Test
    void aPartIsWrittenToAnAbsolutePathOnly(@TempDir Path directory) throws Exception {
        Part file = multipartRequest(null).getPart("receipt");

        Path target = directory.resolve("copy.txt");
        file.write(target.toString());
        assertArrayEquals(bytes("file bytes"), Files.readAllBytes(target));
        assertThrows(IOException.class, () -> file.write("relative.txt"));
    }

    @Test
    void multipartAndUrlencodedBodiesAreBrowserForms() {
        assertTrue(BufferedBodyRequest.postsForm(MULTIPART));
        assertTrue(BufferedBodyRequest.postsForm(FORM));
        assertFalse(BufferedBodyRequest.postsForm("application/json"));
    }
}
