package dev.idempotency.forms;

import jakarta.el.ELContext;
import jakarta.el.ValueExpression;
import jakarta.faces.context.FacesContext;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Objects;

/** The value of the key field's output: a hidden input with a new key, each time the form is rendered. */
final class FreshKeyField extends ValueExpression {
    private static final long serialVersionUID = 1L;

    /** The field's name, or {@code null} for the {@code key-field} setting. */
    private final String fieldName;

    FreshKeyField(String fieldName) {
        this.fieldName = fieldName;
    }

    @Override
    public Object getValue(ELContext context) {
        HttpServletRequest request = (HttpServletRequest)
                FacesContext.getCurrentInstance().getExternalContext().getRequest();
        return fieldName == null ? FormKeys.hiddenField(request) : FormKeys.hiddenField(request, fieldName);
    }

    @Override
    public void setValue(ELContext context, Object value) {
        throw new UnsupportedOperationException("the key field is rendered, never submitted into a model");
    }

    @Override
    public boolean isReadOnly(ELContext context) {
        return true;
    }

    @Override
    public Class<?> getType(ELContext context) {
        return String.class;
    }

    @Override
    public Class<?> getExpectedType() {
        return String.class;
    }

    @Override
    public String getExpressionString() {
        return "#{idempotency key field}";
    }

    @Override
    public boolean isLiteralText() {
        return false;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof FreshKeyField field && Objects.equals(field.fieldName, fieldName);
    }

    @Override
    public int hashCode() {
        return Objects.hash(FreshKeyField.class, fieldName);
    }
}
