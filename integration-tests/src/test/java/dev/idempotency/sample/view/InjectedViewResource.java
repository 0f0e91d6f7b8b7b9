package dev.idempotency.sample.view;

import dev.idempotency.IdempotentExecution;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;

/** What a CDI application sees of its key: the injected bean, the request attribute, and a longer-lived bean. */
@Path("views")
@RequestScoped
public class InjectedViewResource {
    @Inject
    IdempotentExecution execution;

    @Inject
    KeyEcho echo;

    @Context
    HttpServletRequest request;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public String view() {
        if (IdempotentExecution.current().isEmpty()) {
            // Keyless: there is no execution, and the injected proxy must not be touched.
            return "{\"covered\":false,\"attribute\":"
                    + (request.getAttribute(IdempotentExecution.REQUEST_ATTRIBUTE) != null) + "}";
        }
        Object attribute = request.getAttribute(IdempotentExecution.REQUEST_ATTRIBUTE);
        IdempotentExecution fromAttribute = (IdempotentExecution) attribute;
        return "{\"covered\":true"
                + ",\"scope\":\"" + execution.scope() + "\""
                + ",\"operation\":\"" + execution.operation() + "\""
                + ",\"key\":\"" + execution.key() + "\""
                + ",\"firstExecution\":" + execution.isFirstExecution()
                + ",\"attributeKey\":\"" + fromAttribute.key() + "\""
                + ",\"echoedKey\":\"" + echo.currentKey() + "\""
                + ",\"derived\":\"" + execution.deriveKey("payments") + "\"}";
    }
}
