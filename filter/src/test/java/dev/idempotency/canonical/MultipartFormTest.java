package dev.idempotency.canonical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.buffer.SegmentedBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MultipartFormTest {
    private static final String TYPE = "multipart/form-data; boundary=XyZ";

    /** The body in small segments, so parts straddle them. */
    private static SegmentedBuffer buffer(String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        SegmentedBuffer buffer = new SegmentedBuffer(3);
        buffer.write(bytes, 0, bytes.length);
        return buffer;
    }

    private static Optional<MultipartForm> parse(String contentType, String body) {
        return MultipartForm.parse(contentType, buffer(body));
    }

    private static String text(MultipartForm.Part part) {
        return new String(part.bytes(), StandardCharsets.UTF_8);
    }

    @Test
    void readsTextAndFilePartsInTheOrderSent() {
        MultipartForm form = parse(
                        TYPE,
                        "--XyZ\r\nContent-Disposition: form-data; name=\"amount\"\r\n\r\n100\r\n"
                                + "--XyZ\r\nContent-Disposition: form-data; name=\"receipt\"; filename=\"r.txt\"\r\n"
                                + "Content-Type: text/plain\r\n\r\nline 1\r\nline 2\r\n--XyZ--\r\n")
                .get();

        List<MultipartForm.Part> parts = form.parts();
        assertEquals(2, parts.size());
        assertEquals("amount", parts.get(0).name());
        assertFalse(parts.get(0).fileName().isPresent());
        assertEquals("100", text(parts.get(0)));
        assertEquals("receipt", parts.get(1).name());
        assertEquals(Optional.of("r.txt"), parts.get(1).fileName());
        assertEquals("text/plain", parts.get(1).contentType());
        assertEquals("line 1\r\nline 2", text(parts.get(1)));
        assertEquals(14, parts.get(1).size());
    }

    @Test
    void readsAQuotedBoundaryAndIgnoresPreambleAndEpilogue() {
        Optional<MultipartForm> form = parse(
                "Multipart/Form-Data; charset=utf-8; boundary=\"a b:c\"",
                "preamble text\r\n--a b:c\r\ncontent-disposition: form-data; name=x\r\n\r\n1\r\n--a b:c--"
                        + "\r\nepilogue");

        assertEquals("1", text(form.get().parts().get(0)));
    }

    @Test
    void keepsContentThatLooksAlmostLikeTheDelimiter() {
        MultipartForm form = parse(
                        TYPE,
                        "--XyZ\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n\r\n--XyA\r\r\n--Xy\r\n--XyZ--")
                .get();

        assertEquals("\r\n--XyA\r\r\n--Xy", text(form.parts().get(0)));
    }

    @Test
    void readsAnEmptyPartAndTransportPadding() {
        MultipartForm form = parse(
                        TYPE, "--XyZ \t\r\nContent-Disposition: form-data; name=\"empty\"\r\n\r\n\r\n--XyZ--\r\n")
                .get();

        assertEquals(0, form.parts().get(0).size());
        assertArrayEquals(new byte[0], form.parts().get(0).bytes());
    }

    @Test
    void servesHeadersByNameInAnyCase() {
        MultipartForm.Part part = parse(
                        TYPE,
                        "--XyZ\r\nContent-Disposition: form-data; name=\"f\"; filename=\"\"\r\n"
                                + "content-type: application/octet-stream\r\nX-Note: a\r\nX-Note: b\r\n\r\n\r\n--XyZ--")
                .get()
                .parts()
                .get(0);

        assertEquals(Optional.of(""), part.fileName());
        assertEquals("application/octet-stream", part.header("CONTENT-TYPE"));
        assertEquals(List.of("a", "b"), part.headers().get("x-note"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                // no final boundary
                "--XyZ\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n1\r\n",
                // the final boundary is the last part's delimiter, never closed
                "--XyZ\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n1\r\n--XyZ",
                // no delimiter at all
                "x=1",
                // a bare LF ends a header line
                "--XyZ\nContent-Disposition: form-data; name=\"x\"\n\n1\r\n--XyZ--",
                "--XyZ\r\nContent-Disposition: form-data; name=\"x\"\n\r\n1\r\n--XyZ--",
                // no name
                "--XyZ\r\nContent-Disposition: form-data\r\n\r\n1\r\n--XyZ--",
                "--XyZ\r\nContent-Disposition: form-data; filename=\"a\"\r\n\r\n1\r\n--XyZ--",
                // not form-data
                "--XyZ\r\nContent-Disposition: attachment; name=\"x\"\r\n\r\n1\r\n--XyZ--",
                // no Content-Disposition
                "--XyZ\r\nContent-Type: text/plain\r\n\r\n1\r\n--XyZ--",
                // an unclosed quote, a repeated parameter
                "--XyZ\r\nContent-Disposition: form-data; name=\"x\r\n\r\n1\r\n--XyZ--",
                "--XyZ\r\nContent-Disposition: form-data; name=x; name=y\r\n\r\n1\r\n--XyZ--",
                // a folded header line
                "--XyZ\r\nContent-Disposition: form-data;\r\n name=\"x\"\r\n\r\n1\r\n--XyZ--",
                // garbage after the delimiter
                "--XyZ junk\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n1\r\n--XyZ--",
                // the body ends inside the headers
                "--XyZ\r\nContent-Disposition: form-data; name=\"x\"\r\n",
            })
    void malformedBodiesAreNotForms(String body) {
        assertFalse(parse(TYPE, body).isPresent(), body);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "multipart/form-data",
                "multipart/form-data; boundary=",
                "multipart/form-data; boundary=\"unclosed",
                "multipart/form-data; boundary=ends-with-space\" \"",
                "multipart/form-data; boundary=bad\\char",
                "multipart/mixed; boundary=XyZ",
            })
    void contentTypesWithoutAValidBoundaryAreNotForms(String contentType) {
        assertFalse(parse(contentType, "--XyZ\r\nContent-Disposition: form-data; name=x\r\n\r\n1\r\n--XyZ--")
                .isPresent());
    }

    @Test
    void decodesTextStrictlyInThePartsCharset() {
        byte[] latin1 = "--XyZ\r\nContent-Disposition: form-data; name=\"x\"\r\nContent-Type: text/plain;"
                .getBytes(StandardCharsets.US_ASCII);
        SegmentedBuffer body = new SegmentedBuffer(64);
        body.write(latin1, 0, latin1.length);
        byte[] rest = " charset=ISO-8859-1\r\n\r\n\u00e9\r\n--XyZ--".getBytes(StandardCharsets.ISO_8859_1);
        body.write(rest, 0, rest.length);
        MultipartForm.Part part = MultipartForm.parse(TYPE, body).get().parts().get(0);

        assertEquals(Optional.of("\u00e9"), part.strictText());
    }

    @Test
    void textThatIsNotValidInItsCharsetHasNoStrictText() {
        byte[] head = "--XyZ\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        SegmentedBuffer body = new SegmentedBuffer(64);
        body.write(head, 0, head.length);
        body.write(new byte[] {(byte) 0xE9, '\r', '\n', '-', '-', 'X', 'y', 'Z', '-', '-'}, 0, 10);

        assertEquals(
                Optional.empty(),
                MultipartForm.parse(TYPE, body).get().parts().get(0).strictText());
    }

    @Test
    void recognizesOnlyMultipartFormData() {
        assertTrue(MultipartForm.isMultipart(" multipart/form-data ; boundary=x"));
        assertFalse(MultipartForm.isMultipart("multipart/form-datax"));
        assertFalse(MultipartForm.isMultipart(null));
        assertEquals(
                List.of("a", "b"),
                parse(
                                TYPE,
                                "--XyZ\r\nContent-Disposition: form-data; name=a\r\n\r\n\r\n--XyZ\r\n"
                                        + "Content-Disposition: form-data; name=b\r\n\r\n\r\n--XyZ--")
                        .get()
                        .parts()
                        .stream()
                        .map(MultipartForm.Part::name)
                        .collect(Collectors.toList()));
    }
}
