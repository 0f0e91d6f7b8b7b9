package dev.idempotency.servlet;

import java.util.Optional;

/**
 * A request's idempotency key and where it came from: the key header an API client sends, or the form field a
 * browser posts (a field the page rendered, or a framework's per-render token). Where it came from decides the
 * scope (a form's key belongs to the browser session that rendered the form), whether a redirect is a stored
 * outcome, and whether a refusal is a page or a problem document.
 *
 * @param value the validated key
 * @param formField the form field it came in, or empty when it came in the header
 */
record SentKey(String value, Optional<String> formField) {
    static SentKey inHeader(String value) {
        return new SentKey(value, Optional.empty());
    }

    static SentKey inForm(String value, String field) {
        return new SentKey(value, Optional.of(field));
    }

    boolean fromForm() {
        return formField.isPresent();
    }
}
