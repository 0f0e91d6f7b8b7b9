package dev.idempotency.servlet;

import dev.idempotency.ConfigurationException;
import dev.idempotency.config.IdempotencyConfig;
import dev.idempotency.config.Operation;
import jakarta.servlet.ServletContext;
import java.util.Locale;
import java.util.Optional;

/**
 * A JSF view state as a form's key, with no page edit: saved on the server (Mojarra's and MyFaces' default), the
 * view state is an id that is new on every render and unique within the session, which is what a key must be.
 * Saved on the client, it is the serialized view itself, and two renders of one view in one state post the same
 * text: two intents would be one request. That configuration is refused when the application starts.
 *
 * <p>Stateless and thread-safe.
 */
public final class ViewStateKeys {
    // One namespace each: the javax build renames these as it renames every jakarta.faces name of the jar.
    private static final String VIEW_STATE_FIELD = "jakarta.faces.ViewState";
    private static final String STATE_SAVING_PARAMETER = "jakarta.faces.STATE_SAVING_METHOD";

    private ViewStateKeys() {}

    /**
     * @throws ConfigurationException naming the operation, the field and the context parameter, if an operation
     *     takes its key from the view state while the application saves the state on the client
     */
    public static void check(ServletContext context, IdempotencyConfig config) {
        if (!"client".equals(lower(context.getInitParameter(STATE_SAVING_PARAMETER)))) {
            return;
        }
        for (Operation operation : config.operations()) {
            Optional<String> field = config.policyOf(operation).keyField();
            if (field.isPresent() && VIEW_STATE_FIELD.equals(field.get())) {
                throw new ConfigurationException("key-field: " + operation.contract() + " takes its keys from "
                        + field.get() + ", but " + STATE_SAVING_PARAMETER
                        + " is 'client', so two renders of one view can"
                        + " post the same view state and two intents would be one request; keep the state on the"
                        + " server, or render a key field with <idem:keyField/> and set key-field to its name");
            }
        }
    }

    private static String lower(String value) {
        return value == null ? null : value.trim().toLowerCase(Locale.ROOT);
    }
}
