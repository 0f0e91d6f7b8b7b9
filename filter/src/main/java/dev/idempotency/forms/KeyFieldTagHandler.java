package dev.idempotency.forms;

import jakarta.faces.component.UIComponent;
import jakarta.faces.component.html.HtmlOutputText;
import jakarta.faces.view.facelets.FaceletContext;
import jakarta.faces.view.facelets.TagAttribute;
import jakarta.faces.view.facelets.TagConfig;
import jakarta.faces.view.facelets.TagHandler;

/**
 * {@code <idem:keyField/>} inside a Facelets {@code h:form} ({@code xmlns:idem="https://idempotency.dev/forms"}):
 * the hidden key field of {@link FormKeys}, new on every render of the form, an Ajax render of it included. The
 * optional {@code name} attribute names the field for an operation whose {@code key-field=} differs from the
 * setting.
 *
 * <p>It adds a standard output component whose value is worked out at each render, and no component class of
 * its own: a component class in the jar would make Faces start in every application that carries the jar.
 *
 * <p>Immutable and thread-safe, as Facelets requires of a tag handler.
 */
public class KeyFieldTagHandler extends TagHandler {
    /** The id of the output it adds to the form: one key field per form. */
    static final String ID = "idempotencyKeyField";

    private final TagAttribute name;

    public KeyFieldTagHandler(TagConfig config) {
        super(config);
        this.name = getAttribute("name");
    }

    @Override
    public void apply(FaceletContext context, UIComponent parent) {
        for (UIComponent child : parent.getChildren()) {
            if (ID.equals(child.getId())) {
                // Facelets builds the tree again on a postback; the field is added once per form.
                return;
            }
        }
        HtmlOutputText field = (HtmlOutputText)
                context.getFacesContext().getApplication().createComponent(HtmlOutputText.COMPONENT_TYPE);
        field.setId(ID);
        field.setEscape(false);
        // Nothing of it is worth saving: each render makes a new key.
        field.setTransient(true);
        field.setValueExpression("value", new FreshKeyField(name == null ? null : name.getValue(context)));
        parent.getChildren().add(field);
    }
}
