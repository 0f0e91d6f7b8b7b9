package dev.idempotency;

import dev.idempotency.config.Operation;
import dev.idempotency.config.Settings;
import dev.idempotency.config.SettingsParser;
import dev.idempotency.openapi.OpenApiAdditions;
import dev.idempotency.runtime.MicroProfileSettings;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;

/**
 * Documents the filter in the application's own OpenAPI document, on servers that build one with MicroProfile
 * OpenAPI (WildFly with its {@code microprofile-openapi-smallrye} subsystem, Open Liberty with {@code
 * mpOpenAPI-4.0} or later). Opt-in: name it in the WAR's {@code META-INF/microprofile-config.properties},
 *
 * <pre>
 * mp.openapi.filter = dev.idempotency.IdempotencyOpenApiFilter
 * idempotency.operations = POST /api/accounts/{id}/debits = debit:v1
 * </pre>
 *
 * and each operation the filter covers gets, in the document the server serves at {@code /openapi}:
 *
 * <ul>
 *   <li>the key header parameter ({@code key-header}, {@code Idempotency-Key} by default), not required: whether a
 *       keyless request runs depends on the rollout mode, which changes at run time, and its description says so;
 *   <li>the {@code Idempotent-Replayed} and {@code Idempotency-Key-Expires} headers on each 2xx response;
 *   <li>the problem responses ({@code application/problem+json}) the filter may answer it with: 400, 401, 409,
 *       413, 422 and 503 always, 403 where the operation has {@code replay-roles}, 410 where it has {@code
 *       after-expiry=refuse}.
 * </ul>
 *
 * <p>Nothing the application declared is replaced: a parameter of the same name, a response status it documents
 * (or its range, such as {@code 4XX}), a response header it documents, and responses by reference stay as they
 * are. Paths and operations the filter does not cover are not touched, nor is an operation of the settings that
 * the document does not have. An operation with conditions ({@code POST /app?action=buy}) is not documented: an
 * OpenAPI operation cannot say that only some of its requests are covered.
 *
 * <p><b>The operations must be in MicroProfile Config</b> ({@code idempotency.operations}, and {@code
 * idempotency.key-header} if it is not the default). The server builds the document through the application's
 * class loader, which cannot read {@code WEB-INF/idempotency.properties} (on WildFly and Open Liberty the WAR's
 * {@code WEB-INF} is not on it), and possibly before the servlet filter starts. The same properties configure the
 * servlet filter, and both parse them with the same code, so the document and the filter cannot disagree. Without
 * {@code idempotency.operations} in MicroProfile Config, or with a setting the filter would refuse, the document is
 * left as the application made it and a WARNING says why.
 *
 * <p>The class is loaded only by the server, and only when {@code mp.openapi.filter} names it: nothing else in the
 * jar refers to it, so servers without MicroProfile OpenAPI never see its API.
 *
 * <p>Stateless and thread-safe.
 */
public final class IdempotencyOpenApiFilter implements OASFilter {
    private static final Logger LOG = Logger.getLogger(IdempotencyOpenApiFilter.class.getName());

    private final Supplier<Map<String, String>> settings;

    /**
     * The filter the server makes from {@code mp.openapi.filter}. It reads the application's MicroProfile Config
     * through its own class loader, which is the application's: the jar sits in {@code WEB-INF/lib}, and the
     * server's thread context class loader while it builds the document is not specified.
     */
    public IdempotencyOpenApiFilter() {
        this(() -> MicroProfileSettings.read(IdempotencyOpenApiFilter.class.getClassLoader()));
    }

    /** @param settings the {@code idempotency.*} settings by name, as {@link MicroProfileSettings#read} gives them */
    IdempotencyOpenApiFilter(Supplier<Map<String, String>> settings) {
        this.settings = settings;
    }

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        List<Operation> operations;
        String keyHeader;
        try {
            Map<String, String> given = settings.get();
            operations = SettingsParser.parseOne(Settings.OPERATIONS, given.get(Settings.OPERATIONS.name()));
            keyHeader = SettingsParser.parseOne(Settings.KEY_HEADER, given.get(Settings.KEY_HEADER.name()));
        } catch (ConfigurationException e) {
            // The servlet filter refuses the same settings and fails the deployment with the same message.
            LOG.warning("the OpenAPI document is left as the application made it: " + e.getMessage());
            return;
        }
        if (operations.isEmpty()) {
            LOG.warning("mp.openapi.filter names " + IdempotencyOpenApiFilter.class.getName() + ", but MicroProfile"
                    + " Config has no " + MicroProfileSettings.PREFIX + Settings.OPERATIONS.name() + ", so the"
                    + " OpenAPI document is left as the application made it. The server builds the document without"
                    + " reading WEB-INF/idempotency.properties: set the operations (and key-header, if changed) as "
                    + MicroProfileSettings.PREFIX + "<setting> in META-INF/microprofile-config.properties instead");
            return;
        }
        OpenApiAdditions.Summary summary = new OpenApiAdditions(operations, keyHeader).addTo(openAPI);
        LOG.info("the OpenAPI document shows the idempotency filter on "
                + summary.documented().size()
                + " covered operation(s) " + summary.documented()
                + (summary.conditional().isEmpty()
                        ? ""
                        : "; not on " + summary.conditional() + ", which the filter covers only for requests with"
                                + " the parameters its conditions name"));
    }
}
