package dev.idempotency.forms;

import dev.idempotency.servlet.HtmlText;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;
import java.util.UUID;

/**
 * The hidden field that carries a form's idempotency key, new on every render: one render is one intent, so a
 * double click, a reload of the page the post produced, or a back-and-resubmit posts the same key again, and the
 * filter answers it with the first outcome; a new render of the form is a new key, and a new effect.
 *
 * <pre>{@code
 * out.write("<form method=\"post\" action=\"pay\">" + FormKeys.hiddenField(request) + "...</form>");
 * }</pre>
 *
 * <p>The field is named by the {@code key-field} setting, which the filter publishes to the application when it
 * starts. Rendering a field starts the browser's session if there is none yet: a form's key belongs to the
 * session that rendered it (see {@code docs/browser-forms.md}), so call it before the response is committed.
 *
 * <p>Stateless and thread-safe.
 */
public final class FormKeys {
    /** The servlet context attribute under which the filter publishes its {@code key-field}. */
    public static final String FIELD_NAME_ATTRIBUTE = FormKeys.class.getName() + ".fieldName";

    private FormKeys() {}

    /**
     * A hidden input named by the {@code key-field} setting, holding a new key.
     *
     * @throws IllegalStateException if no filter of this application has a {@code key-field} setting
     */
    public static String hiddenField(HttpServletRequest request) {
        return hiddenField(request, fieldName(request.getServletContext()));
    }

    /**
     * A hidden input with this name, holding a new key: for an operation whose own {@code key-field=} differs from
     * the setting.
     */
    public static String hiddenField(HttpServletRequest request, String fieldName) {
        // The session the key will be scoped by must exist before the page reaches the browser.
        request.getSession(true);
        return "<input type=\"hidden\" name=\"" + HtmlText.escape(fieldName) + "\" value=\"" + newKey() + "\">";
    }

    /** A new key: a random UUID, which no one can guess from the keys of other renders. */
    public static String newKey() {
        return UUID.randomUUID().toString();
    }

    /**
     * The {@code key-field} the application's filter reads.
     *
     * @throws IllegalStateException if no filter of this application has one
     */
    public static String fieldName(ServletContext context) {
        return Optional.ofNullable(context.getAttribute(FIELD_NAME_ATTRIBUTE))
                .map(Object::toString)
                .orElseThrow(() -> new IllegalStateException("the idempotency filter of this application reads no"
                        + " form field for keys; set key-field (for example key-field = idempotency-key) in"
                        + " WEB-INF/idempotency.properties, or name the field where the page renders it"));
    }
}
