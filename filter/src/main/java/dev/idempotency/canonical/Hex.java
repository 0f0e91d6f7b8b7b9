package dev.idempotency.canonical;

/**
 * Bytes as lower-case hexadecimal, two digits a byte: the form of the digests the filter stores and compares.
 * {@code java.util.HexFormat} does the same from Java 17 on; the jars also run on Java 8.
 *
 * <p>Stateless and thread-safe.
 */
public final class Hex {
    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private Hex() {}

    public static String of(byte[] bytes) {
        char[] text = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            text[2 * i] = DIGITS[(bytes[i] >> 4) & 0xF];
            text[2 * i + 1] = DIGITS[bytes[i] & 0xF];
        }
        return new String(text);
    }
}
