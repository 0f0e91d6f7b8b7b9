package dev.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idempotency.config.Settings;
import dev.idempotency.config.SettingsParser;
import dev.idempotency.openapi.DocumentDifferences;
import dev.idempotency.openapi.OpenApiAdditions;
import io.smallrye.openapi.api.SmallRyeOpenAPI;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;
import org.eclipse.microprofile.openapi.OASFilter;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI additions on a real MicroProfile OpenAPI model (SmallRye's, as WildFly ships it): the application's
 * document is read from JSON, filtered as the server would filter it, and written out again, so what is compared is
 * what a client fetching {@code /openapi} would read.
 */
class IdempotencyOpenApiFilterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PROBLEM = "urn:dev.idempotency:problem:";

    /** SmallRye reads its own settings from MicroProfile Config; the test has none to give, and no implementation. */
    private static final Config NO_CONFIG = new Config() {
        @Override
        public <T> T getValue(String propertyName, Class<T> propertyType) {
            throw new NoSuchElementException(propertyName);
        }

        @Override
        public ConfigValue getConfigValue(String propertyName) {
            throw new UnsupportedOperationException(propertyName);
        }

        @Override
        public <T> Optional<T> getOptionalValue(String propertyName, Class<T> propertyType) {
            return Optional.empty();
        }

        @Override
        public Iterable<String> getPropertyNames() {
            return List.of();
        }

        @Override
        public Iterable<ConfigSource> getConfigSources() {
            return List.of();
        }

        @Override
        public <T> Optional<Converter<T>> getConverter(Class<T> forType) {
            return Optional.empty();
        }

        @Override
        public <T> T unwrap(Class<T> type) {
            throw new UnsupportedOperationException(type.getName());
        }
    };

    /** The application's own document, as its annotations and static file would make it. */
    private static final String APPLICATION_DOCUMENT =
            """
            {
              "openapi": "3.1.0",
              "info": {"title": "Orders", "version": "1"},
              "paths": {
                "/api/orders": {
                  "get": {"responses": {"200": {"description": "The orders"}}},
                  "post": {
                    "operationId": "placeOrder",
                    "parameters": [{"name": "X-Trace", "in": "header", "schema": {"type": "string"}}],
                    "responses": {
                      "201": {"description": "Placed", "headers": {"Location": {"schema": {"type": "string"}}}},
                      "409": {"description": "The order number is taken"}
                    }
                  }
                },
                "/api/orders/{orderId}/cancellations": {
                  "post": {"responses": {"200": {"description": "Cancelled"}}}
                },
                "/api/quotes": {"post": {"responses": {"200": {"description": "A quote"}}}},
                "/api/quotes/{quoteId}": {"post": {"responses": {"200": {"description": "A requote"}}}},
                "/api/refunds/": {"post": {"responses": {"204": {"description": "Refunded"}}}},
                "/api/payments": {
                  "post": {
                    "parameters": [{"$ref": "#/components/parameters/Key"}],
                    "responses": {
                      "200": {"$ref": "#/components/responses/Paid"},
                      "4XX": {"description": "Refused"}
                    }
                  }
                },
                "/app": {"post": {"responses": {"200": {"description": "A page"}}}}
              },
              "components": {
                "parameters": {
                  "Key": {"name": "idempotency-key", "in": "header", "required": true, "schema": {"type": "string"}}
                },
                "responses": {"Paid": {"description": "Paid"}}
              }
            }
            """;

    /**
     * Covers orders (the template's variable named otherwise than the document's), cancellations with both
     * options that add a status, a literal quote path the document has only as a variable, refunds (written with a
     * trailing slash in the document), payments, two actions of a front controller, and invoices, which the
     * document does not have.
     */
    private static final String OPERATIONS = "POST /api/orders = place-order:v1;"
            + " POST /api/orders/{id}/cancellations = cancel-order:v1 after-expiry=refuse replay-roles=clerk;"
            + " POST /api/quotes/special = special-quote:v1;"
            + " POST /api/refunds = refund:v1;"
            + " POST /api/payments = pay:v1;"
            + " POST /app?action=buy = buy:v1; POST /app?action=sell = sell:v1;"
            + " POST /api/invoices = invoice:v1";

    @Test
    void coveredOperationGetsTheKeyParameterNotRequiredAndNamingItsContract() throws Exception {
        JsonNode placeOrder = filtered(Map.of("operations", OPERATIONS)).at("/paths/~1api~1orders/post");

        JsonNode key = placeOrder.at("/parameters/1");
        assertEquals("Idempotency-Key", key.at("/name").asText());
        assertEquals("header", key.at("/in").asText());
        assertFalse(key.at("/required").asBoolean(), key.toString());
        assertTrue(key.at("/description").asText().contains("`place-order:v1`"), key.toString());
        assertTrue(key.at("/description").asText().contains("rollout mode"), key.toString());
        assertEquals("X-Trace", placeOrder.at("/parameters/0/name").asText(), "the application's parameter first");
    }

    @Test
    void successResponsesGetTheReplayHeadersBesideTheirOwn() throws Exception {
        JsonNode headers =
                filtered(Map.of("operations", OPERATIONS)).at("/paths/~1api~1orders/post/responses/201/headers");

        assertEquals(Set.of("Location", "Idempotent-Replayed", "Idempotency-Key-Expires"), fieldNames(headers));
        assertEquals("true", headers.at("/Idempotent-Replayed/schema/enum/0").asText());
    }

    @Test
    void coveredOperationGetsTheFilterProblemResponsesAndKeepsTheStatusesItDeclared() throws Exception {
        JsonNode responses = filtered(Map.of("operations", OPERATIONS)).at("/paths/~1api~1orders/post/responses");

        assertEquals(Set.of("201", "400", "401", "409", "413", "422", "503"), fieldNames(responses));
        assertEquals(
                "The order number is taken", responses.at("/409/description").asText());
        assertTrue(responses.at("/409/content").isMissingNode(), "the application's own 409 is kept as it is");
        JsonNode reused = responses.at("/422/content/application~1problem+json/schema");
        assertEquals(
                PROBLEM + "idempotency-key-reused",
                reused.at("/properties/type/enum/0").asText());
        assertEquals("array", reused.at("/properties/mismatches/type").asText());
        assertEquals(
                List.of(
                        PROBLEM + "idempotency-key-invalid",
                        PROBLEM + "idempotency-key-required",
                        PROBLEM + "request-body-incomplete"),
                texts(responses.at("/400/content/application~1problem+json/schema/properties/type/enum")));
        assertEquals(
                List.of(PROBLEM + "transaction-conflict", PROBLEM + "store-unavailable", PROBLEM + "commit-failed"),
                texts(responses.at("/503/content/application~1problem+json/schema/properties/type/enum")));
        assertFalse(responses.at("/503/headers/Retry-After").isMissingNode());
        assertFalse(responses.at("/503/headers/retry-after-ms").isMissingNode());
    }

    @Test
    void goneAndForbiddenOnlyWhereTheOperationsOptionsCanAnswerThem() throws Exception {
        JsonNode paths = filtered(Map.of("operations", OPERATIONS)).at("/paths");

        JsonNode cancellation = paths.at("/~1api~1orders~1{orderId}~1cancellations/post/responses");
        assertEquals(
                PROBLEM + "idempotency-key-expired",
                cancellation
                        .at("/410/content/application~1problem+json/schema/properties/type/enum/0")
                        .asText());
        assertEquals(
                PROBLEM + "replay-forbidden",
                cancellation
                        .at("/403/content/application~1problem+json/schema/properties/type/enum/0")
                        .asText());
        assertTrue(paths.at("/~1api~1orders/post/responses/410").isMissingNode());
        assertTrue(paths.at("/~1api~1orders/post/responses/403").isMissingNode());
    }

    /**
     * Everything the filtered document has that the application's has not, as JSON pointers: the only differences
     * are these additions, and nothing the application wrote is changed or removed.
     */
    @Test
    void nothingButTheAdditionsToCoveredOperationsChanges() throws Exception {
        JsonNode application = filtered(Map.of());
        JsonNode filtered = filtered(Map.of("operations", OPERATIONS));

        List<String> changed = new ArrayList<>();
        Set<String> added = new TreeSet<>();
        DocumentDifferences.compare("", application, filtered, changed, added);

        assertEquals(List.of(), changed);
        String orders = "/paths/~1api~1orders/post";
        String cancellations = "/paths/~1api~1orders~1{orderId}~1cancellations/post";
        String refunds = "/paths/~1api~1refunds~1/post";
        String payments = "/paths/~1api~1payments/post";
        Set<String> expected = new TreeSet<>(List.of(
                orders + "/parameters/1",
                orders + "/responses/201/headers/Idempotent-Replayed",
                orders + "/responses/201/headers/Idempotency-Key-Expires",
                orders + "/responses/400",
                orders + "/responses/401",
                orders + "/responses/413",
                orders + "/responses/422",
                orders + "/responses/503",
                cancellations + "/parameters",
                cancellations + "/responses/200/headers",
                cancellations + "/responses/400",
                cancellations + "/responses/401",
                cancellations + "/responses/403",
                cancellations + "/responses/409",
                cancellations + "/responses/410",
                cancellations + "/responses/413",
                cancellations + "/responses/422",
                cancellations + "/responses/503",
                refunds + "/parameters",
                refunds + "/responses/204/headers",
                refunds + "/responses/400",
                refunds + "/responses/401",
                refunds + "/responses/409",
                refunds + "/responses/413",
                refunds + "/responses/422",
                refunds + "/responses/503",
                // The key by reference, the shared 200 and the declared 4XX range are the application's.
                payments + "/responses/503"));
        assertEquals(expected, added);
    }

    @Test
    void operationsWithConditionsAreReportedAndNotDocumented() throws Exception {
        OpenApiAdditions additions =
                new OpenApiAdditions(SettingsParser.parseOne(Settings.OPERATIONS, OPERATIONS), "Idempotency-Key");
        OpenApiAdditions.Summary summary = additions.addTo(SmallRyeOpenAPI.builder()
                .withConfig(NO_CONFIG)
                .withCustomStaticFile(
                        () -> new ByteArrayInputStream(APPLICATION_DOCUMENT.getBytes(StandardCharsets.UTF_8)))
                .enableModelReader(false)
                .enableStandardFilter(false)
                .enableAnnotationScan(false)
                .enableStandardStaticFiles(false)
                .build()
                .model());

        assertEquals(List.of("POST /app"), summary.conditional());
        assertEquals(
                Set.of(
                        "POST /api/orders = place-order:v1",
                        "POST /api/orders/{orderId}/cancellations = cancel-order:v1",
                        "POST /api/refunds/ = refund:v1",
                        "POST /api/payments = pay:v1"),
                Set.copyOf(summary.documented()));
    }

    @Test
    void theKeyParameterTakesTheNameOfTheKeyHeaderSetting() throws Exception {
        JsonNode parameters = filtered(Map.of("operations", OPERATIONS, "key-header", "X-Request-Key"))
                .at("/paths/~1api~1orders/post/parameters");

        assertEquals("X-Request-Key", parameters.at("/1/name").asText());
        // The application's key parameter names the default header, which is not the key here.
        assertEquals(
                "X-Request-Key",
                filtered(Map.of("operations", OPERATIONS, "key-header", "X-Request-Key"))
                        .at("/paths/~1api~1payments/post/parameters/1/name")
                        .asText());
    }

    @Test
    void withoutOperationsInMicroProfileConfigTheDocumentIsLeftAlone() throws Exception {
        assertEquals(filtered(Map.of()), filteredBy(new IdempotencyOpenApiFilter(Map::of)));
    }

    @Test
    void settingsTheFilterWouldRefuseLeaveTheDocumentAlone() throws Exception {
        assertEquals(filtered(Map.of()), filtered(Map.of("operations", "GET /api/orders = list-orders:v1")));
        assertEquals(filtered(Map.of()), filtered(Map.of("operations", OPERATIONS, "key-header", "no spaces")));
    }

    /** The application's document after the filter with these {@code idempotency.*} settings; none for none. */
    private static JsonNode filtered(Map<String, String> settings) throws Exception {
        return settings.isEmpty() ? filteredBy(null) : filteredBy(new IdempotencyOpenApiFilter(() -> settings));
    }

    private static JsonNode filteredBy(OASFilter filter) throws Exception {
        SmallRyeOpenAPI.Builder builder = SmallRyeOpenAPI.builder()
                .withConfig(NO_CONFIG)
                .withCustomStaticFile(
                        () -> new ByteArrayInputStream(APPLICATION_DOCUMENT.getBytes(StandardCharsets.UTF_8)))
                .enableModelReader(false)
                .enableStandardFilter(false)
                .enableAnnotationScan(false)
                .enableStandardStaticFiles(false);
        if (filter != null) {
            builder.addFilter(filter);
        }
        return JSON.readTree(builder.build().toJSON());
    }

    private static Set<String> fieldNames(JsonNode node) {
        Set<String> names = new TreeSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(item -> texts.add(item.asText()));
        return texts;
    }
}
