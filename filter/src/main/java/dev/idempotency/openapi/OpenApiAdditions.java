package dev.idempotency.openapi;

import dev.idempotency.config.Operation;
import dev.idempotency.servlet.Problem;
import dev.idempotency.servlet.WireNames;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

/**
 * What the filter adds to an application's OpenAPI document for each operation it covers: the key header
 * parameter, the {@code Idempotent-Replayed} and {@code Idempotency-Key-Expires} headers on the 2xx responses, and
 * the problem responses the filter may answer with. It only adds: a parameter, header or response status the
 * application declared itself is kept as declared, and paths and operations the filter does not cover are not
 * touched. Nothing is added for an operation of the settings that the document does not have.
 *
 * <p>The document's paths are matched with the filter's own matcher ({@link Operation#matches}): OpenAPI paths are
 * relative to the context root and include the JAX-RS application path, as the filter's templates are. A path
 * variable of the document ({@code /orders/{id}}) matches only a variable of the template, so an operation that
 * the filter covers for some values of a variable only is left alone. So is any path and method on which an entry
 * has conditions ({@code ?action=buy}): an OpenAPI operation cannot say which of its requests the filter covers.
 *
 * <p>Immutable and thread-safe; the document it changes must not be read or changed by another thread meanwhile.
 */
public final class OpenApiAdditions {
    /** The media type of the filter's refusals (RFC 9457). */
    static final String PROBLEM_JSON = "application/problem+json";

    private static final String PARAMETER_REFERENCE = "#/components/parameters/";

    /** What {@link #addTo} did, for the log. */
    public record Summary(List<String> documented, List<String> conditional) {
        public Summary {
            documented = Collections.unmodifiableList(new ArrayList<>(documented));
            conditional = Collections.unmodifiableList(new ArrayList<>(conditional));
        }
    }

    private final List<Operation> operations;
    private final String keyHeader;

    /**
     * @param operations the {@code operations} setting, in its order (the first entry that matches wins, as in the
     *     filter)
     * @param keyHeader the {@code key-header} setting
     */
    public OpenApiAdditions(List<Operation> operations, String keyHeader) {
        this.operations = Collections.unmodifiableList(new ArrayList<>(operations));
        this.keyHeader = keyHeader;
    }

    /** Adds to every covered operation of the document what the filter brings to it. */
    public Summary addTo(OpenAPI document) {
        List<String> documented = new ArrayList<>();
        List<String> conditional = new ArrayList<>();
        if (document.getPaths() == null || document.getPaths().getPathItems() == null) {
            return new Summary(documented, conditional);
        }
        for (Map.Entry<String, PathItem> path :
                document.getPaths().getPathItems().entrySet()) {
            PathItem item = path.getValue();
            if (item == null || item.getOperations() == null) {
                continue;
            }
            for (Map.Entry<PathItem.HttpMethod, org.eclipse.microprofile.openapi.models.Operation> method :
                    item.getOperations().entrySet()) {
                String name = method.getKey().name() + " " + path.getKey();
                List<Operation> matching = matching(method.getKey().name(), contextRelative(path.getKey()));
                if (matching.isEmpty()) {
                    continue;
                }
                if (matching.stream()
                        .anyMatch(operation -> !operation.conditions().isEmpty())) {
                    conditional.add(name);
                    continue;
                }
                Operation covered = matching.get(0);
                document(document, item, method.getValue(), covered);
                documented.add(name + " = " + covered.contract());
            }
        }
        return new Summary(documented, conditional);
    }

    private List<Operation> matching(String method, String path) {
        return operations.stream()
                .filter(operation -> operation.matches(method, path))
                .collect(Collectors.toList());
    }

    /**
     * The path as the filter would see a request to it: the filter removes one trailing slash before matching, and
     * some generators write the context root as the empty path.
     */
    private static String contextRelative(String documentPath) {
        if (documentPath.isEmpty()) {
            return "/";
        }
        if (documentPath.length() > 1 && documentPath.endsWith("/")) {
            return documentPath.substring(0, documentPath.length() - 1);
        }
        return documentPath;
    }

    private void document(
            OpenAPI document,
            PathItem item,
            org.eclipse.microprofile.openapi.models.Operation target,
            Operation covered) {
        if (!declaresKeyHeader(document, item.getParameters())
                && !declaresKeyHeader(document, target.getParameters())) {
            target.addParameter(keyParameter(covered));
        }
        if (target.getResponses() == null) {
            target.setResponses(OASFactory.createAPIResponses());
        }
        APIResponses responses = target.getResponses();
        if (responses.getAPIResponses() != null) {
            for (Map.Entry<String, APIResponse> response :
                    responses.getAPIResponses().entrySet()) {
                // A response by reference is shared with other operations through the components: leave it whole.
                if (response.getKey().startsWith("2")
                        && response.getValue() != null
                        && response.getValue().getRef() == null) {
                    addStoredResponseHeaders(response.getValue());
                }
            }
        }
        problemsByStatus(covered).forEach((status, problems) -> {
            if (!declaresStatus(responses, status)) {
                responses.addAPIResponse(String.valueOf(status), problemResponse(status, problems));
            }
        });
    }

    /** Whether the parameters already hold the key header, written inline or by reference to the components. */
    private boolean declaresKeyHeader(OpenAPI document, List<Parameter> parameters) {
        if (parameters == null) {
            return false;
        }
        for (Parameter parameter : parameters) {
            Parameter declared = resolve(document, parameter);
            if (declared != null
                    && declared.getIn() == Parameter.In.HEADER
                    && keyHeader.equalsIgnoreCase(declared.getName())) {
                return true;
            }
        }
        return false;
    }

    private static Parameter resolve(OpenAPI document, Parameter parameter) {
        if (parameter == null || parameter.getRef() == null) {
            return parameter;
        }
        if (!parameter.getRef().startsWith(PARAMETER_REFERENCE)
                || document.getComponents() == null
                || document.getComponents().getParameters() == null) {
            return null;
        }
        return document.getComponents().getParameters().get(parameter.getRef().substring(PARAMETER_REFERENCE.length()));
    }

    /** An exact status, or its range ({@code 4XX}), already there: OpenAPI would let ours take its place. */
    private static boolean declaresStatus(APIResponses responses, int status) {
        if (responses.getAPIResponses() == null) {
            return false;
        }
        String range = (status / 100) + "XX";
        return responses.getAPIResponses().keySet().stream()
                .anyMatch(code -> code.equals(String.valueOf(status))
                        || code.toUpperCase(Locale.ROOT).equals(range));
    }

    private Parameter keyParameter(Operation covered) {
        return OASFactory.createParameter()
                .name(keyHeader)
                .in(Parameter.In.HEADER)
                // The rollout mode decides whether a keyless request runs, and operators switch it at run time.
                .required(false)
                .description("The idempotency key: a new unique value (such as a UUID) for each intended operation,"
                        + " sent unchanged with every retry of it; 1 to 255 printable ASCII characters, bare or as an"
                        + " RFC 8941 string. A retry with the same key and the same request gets the stored response"
                        + " back, with `" + WireNames.REPLAYED_HEADER + ": true`, and the operation does"
                        + " not run again; the same key with a different request gets 422. Keys are scoped by the"
                        + " authenticated caller and by the operation contract, here `" + covered.contract() + "`."
                        + " Whether a request without a key runs depends on the operation's rollout mode, which"
                        + " operators switch at run time (OPTIONAL runs it unprotected, REQUIRED refuses it with 400"
                        + " `idempotency-key-required`), so it is not marked required here.")
                .schema(TypedSchemas.of(Schema.SchemaType.STRING).minLength(1).pattern("^[\\x20-\\x7E]+$"));
    }

    private static void addStoredResponseHeaders(APIResponse response) {
        addHeaderUnlessDeclared(
                response,
                WireNames.REPLAYED_HEADER,
                OASFactory.createHeader()
                        .description("`true` when this is the stored response of an earlier request with the same key"
                                + " and the same request, sent again without running the operation; absent from the"
                                + " first response.")
                        .schema(TypedSchemas.of(Schema.SchemaType.STRING).addEnumeration("true")));
        addHeaderUnlessDeclared(
                response,
                WireNames.EXPIRES_HEADER,
                OASFactory.createHeader()
                        .description("Until when a retry with the same key gets this response back, as an HTTP date"
                                + " (RFC 9110). Sent with a keyed request's stored response and with every replay.")
                        .schema(TypedSchemas.of(Schema.SchemaType.STRING)));
    }

    private static void addHeaderUnlessDeclared(APIResponse response, String name, Header header) {
        boolean declared = response.getHeaders() != null
                && response.getHeaders().keySet().stream().anyMatch(name::equalsIgnoreCase);
        if (!declared) {
            response.addHeader(name, header);
        }
    }

    /**
     * The filter's refusals that a request to this operation can get, by status. Server faults other than 503 are
     * left out: a client cannot act on them beyond what a 500 already says, and {@code docs/errors.md} lists them.
     */
    static SortedMap<Integer, List<Problem>> problemsByStatus(Operation covered) {
        Set<Problem> problems = EnumSet.of(
                Problem.KEY_INVALID,
                Problem.KEY_REQUIRED,
                Problem.REQUEST_INCOMPLETE,
                Problem.AUTHENTICATION_REQUIRED,
                Problem.REQUEST_IN_PROGRESS,
                Problem.REQUEST_TOO_LARGE,
                Problem.KEY_REUSED,
                Problem.TRANSACTION_CONFLICT,
                Problem.STORE_UNAVAILABLE,
                Problem.COMMIT_FAILED);
        if (!covered.replayRoles().isEmpty()) {
            problems.add(Problem.REPLAY_FORBIDDEN);
        }
        if (covered.afterExpiry() == Operation.AfterExpiry.REFUSE) {
            problems.add(Problem.KEY_EXPIRED);
        }
        SortedMap<Integer, List<Problem>> byStatus = new TreeMap<>();
        for (Problem problem : problems) {
            byStatus.computeIfAbsent(problem.status(), status -> new ArrayList<>())
                    .add(problem);
        }
        return byStatus;
    }

    private static APIResponse problemResponse(int status, List<Problem> problems) {
        StringJoiner types = new StringJoiner(
                ", ",
                "From the idempotency filter, as RFC 9457 problem details; the request left nothing behind. Its"
                        + " `type` is one of: ",
                ".");
        Schema type = TypedSchemas.of(Schema.SchemaType.STRING);
        for (Problem problem : problems) {
            types.add("`" + problem.type() + "` (" + problem.title() + ")");
            type.addEnumeration(problem.type());
        }
        Schema body = TypedSchemas.of(Schema.SchemaType.OBJECT)
                .addProperty("type", type)
                .addProperty("title", TypedSchemas.of(Schema.SchemaType.STRING))
                .addProperty(
                        "status", TypedSchemas.of(Schema.SchemaType.INTEGER).addEnumeration(status))
                .addProperty("detail", TypedSchemas.of(Schema.SchemaType.STRING))
                .addProperty("instance", TypedSchemas.of(Schema.SchemaType.STRING));
        if (problems.contains(Problem.KEY_REUSED)) {
            body.addProperty(
                    WireNames.MISMATCHES_MEMBER,
                    TypedSchemas.of(Schema.SchemaType.ARRAY)
                            .description("JSON pointers into the canonical request where it differs from the stored"
                                    + " one, such as `/body/json/amount`.")
                            .items(TypedSchemas.of(Schema.SchemaType.STRING)));
        }
        APIResponse response = OASFactory.createAPIResponse()
                .description(types.toString())
                .content(OASFactory.createContent()
                        .addMediaType(PROBLEM_JSON, OASFactory.createMediaType().schema(body)));
        if (status == 409 || status == 503) {
            response.addHeader(
                    WireNames.RETRY_AFTER_HEADER,
                    OASFactory.createHeader()
                            .description("Seconds to wait before retrying with the same key and the same request.")
                            .schema(TypedSchemas.of(Schema.SchemaType.INTEGER)));
            response.addHeader(
                    WireNames.RETRY_AFTER_MS_HEADER,
                    OASFactory.createHeader()
                            .description("The same delay in milliseconds, jittered by the key.")
                            .schema(TypedSchemas.of(Schema.SchemaType.INTEGER)));
        }
        return response;
    }
}
