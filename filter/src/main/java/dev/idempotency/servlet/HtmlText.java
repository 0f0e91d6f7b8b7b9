package dev.idempotency.servlet;

/**
 * Text made safe to put into HTML or SVG, between tags or in a quoted attribute value: the admin page's and the
 * browser refusals'. {@code null} is written as nothing. Stateless and thread-safe.
 */
public final class HtmlText {
    private HtmlText() {}

    public static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder escaped = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }
}
