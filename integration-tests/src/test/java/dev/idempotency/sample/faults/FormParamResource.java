package dev.idempotency.sample.faults;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * A Jakarta REST resource that takes a form with {@code @FormParam}, after the filter has read the body for its key
 * field: on Jersey a filter that consumed the form body has been seen to leave {@code @FormParam} empty (Krazo
 * #403), so this answers what it was given.
 */
@Path("/test-form-params")
public class FormParamResource {
    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_PLAIN)
    public String echo(@FormParam("name") String name, @FormParam("idempotency-key") String key) {
        return "name=" + name + ";key=" + key;
    }
}
