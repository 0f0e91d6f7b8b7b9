package dev.idempotency.sample.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * The server's own metrics endpoint, read as a Prometheus scraper reads it: WildFly's Micrometer registry on
 * the management interface, Open Liberty's and Payara's MicroProfile Metrics at {@code /metrics}.
 */
public final class ServerMetricsScrape {
    private final String text;

    private ServerMetricsScrape(String text) {
        this.text = text;
    }

    public static ServerMetricsScrape now() {
        URI endpoint = TestServer.isWildFly()
                ? URI.create("http://127.0.0.1:9990/prometheus")
                : TestServer.context("metrics").resolve("?scope=application");
        HttpResponse<String> response =
                Api.send(HttpRequest.newBuilder(endpoint).GET().build());
        assertEquals(200, response.statusCode(), endpoint + ": " + response.body());
        return new ServerMetricsScrape(response.body());
    }

    /**
     * The sum of every sample of {@code metric} whose labels include all of {@code labels} (given as
     * {@code name="value"}); 0 if there is none yet.
     */
    public double value(String metric, String... labels) {
        double sum = 0;
        for (String line : text.split("\n")) {
            if (!line.startsWith(metric + "{")) {
                continue;
            }
            String labelSet = line.substring(metric.length(), line.lastIndexOf('}') + 1);
            boolean matches = true;
            for (String label : labels) {
                matches &= labelSet.contains(label);
            }
            if (matches) {
                sum += Double.parseDouble(
                        line.substring(line.lastIndexOf('}') + 1).trim());
            }
        }
        return sum;
    }

    /** The lines about the filter, for a failure message. */
    public String idempotencyLines() {
        StringBuilder lines = new StringBuilder();
        for (String line : text.split("\n")) {
            if (line.startsWith("idempotency_")) {
                lines.append(line).append('\n');
            }
        }
        return lines.toString();
    }
}
