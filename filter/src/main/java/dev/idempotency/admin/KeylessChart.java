package dev.idempotency.admin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idempotency.servlet.HtmlText;
import java.util.Locale;

/**
 * A bar chart of an operation's daily keyless requests, with the probable duplicates among them, as inline SVG made
 * on the server: no script, no image to load, so the page's Content-Security-Policy can forbid both. Each bar has a
 * {@code <title>} that a browser shows on hover.
 */
final class KeylessChart {
    private static final int WIDTH = 720;
    private static final int HEIGHT = 160;
    private static final int AXIS = 18;
    private static final String REQUESTS_COLOUR = "#7a9cc6";
    private static final String DUPLICATES_COLOUR = "#c0392b";

    private KeylessChart() {}

    /** @param daily the report's {@code keylessHistory.daily}: one object per day, oldest first */
    static String svg(JsonNode daily) {
        int days = Math.max(daily.size(), 1);
        long max = 1;
        for (JsonNode day : daily) {
            max = Math.max(max, day.path("requests").asLong());
        }
        double slot = (double) WIDTH / days;
        double bar = Math.max(slot - 1, 1);
        int plot = HEIGHT - AXIS;
        StringBuilder svg = new StringBuilder();
        svg.append("<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ")
                .append(WIDTH)
                .append(' ')
                .append(HEIGHT)
                .append("\" role=\"img\" aria-label=\"daily keyless requests and probable duplicates\">");
        svg.append("<line x1=\"0\" y1=\"")
                .append(plot)
                .append("\" x2=\"")
                .append(WIDTH)
                .append("\" y2=\"")
                .append(plot)
                .append("\" stroke=\"#888\"/>");
        int i = 0;
        for (JsonNode day : daily) {
            long requests = day.path("requests").asLong();
            long duplicates = day.path("probableDuplicates").asLong();
            String x = format(i * slot);
            svg.append("<g><title>")
                    .append(HtmlText.escape(day.path("day").asText()))
                    .append(": ")
                    .append(requests)
                    .append(" keyless, ")
                    .append(duplicates)
                    .append(" probable duplicates</title>");
            bar(svg, x, bar, plot, (double) requests / max * (plot - 4), REQUESTS_COLOUR);
            bar(svg, x, bar, plot, (double) duplicates / max * (plot - 4), DUPLICATES_COLOUR);
            svg.append("</g>");
            i++;
        }
        label(svg, 2, "start", daily.isEmpty() ? "" : daily.get(0).path("day").asText());
        label(
                svg,
                WIDTH - 2,
                "end",
                daily.isEmpty() ? "" : daily.get(daily.size() - 1).path("day").asText());
        svg.append("<text x=\"2\" y=\"12\" font-size=\"11\" fill=\"#444\">max ")
                .append(max)
                .append(" a day</text>");
        return svg.append("</svg>").toString();
    }

    private static void bar(StringBuilder svg, String x, double width, int plot, double height, String colour) {
        if (height <= 0) {
            return;
        }
        double shown = Math.max(height, 1);
        svg.append("<rect x=\"")
                .append(x)
                .append("\" y=\"")
                .append(format(plot - shown))
                .append("\" width=\"")
                .append(format(width))
                .append("\" height=\"")
                .append(format(shown))
                .append("\" fill=\"")
                .append(colour)
                .append("\"/>");
    }

    private static void label(StringBuilder svg, int x, String anchor, String text) {
        svg.append("<text x=\"")
                .append(x)
                .append("\" y=\"")
                .append(HEIGHT - 4)
                .append("\" font-size=\"11\" fill=\"#444\" text-anchor=\"")
                .append(anchor)
                .append("\">")
                .append(HtmlText.escape(text))
                .append("</text>");
    }

    private static String format(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
