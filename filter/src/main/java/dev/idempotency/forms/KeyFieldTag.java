package dev.idempotency.forms;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.jsp.PageContext;
import jakarta.servlet.jsp.tagext.SimpleTagSupport;
import java.io.IOException;

/**
 * {@code <idem:keyField/>} in a JSP form: the hidden key field of {@link FormKeys}, new on every render. Declare
 * the library with {@code <%@ taglib prefix="idem" uri="https://idempotency.dev/forms" %>}. The optional {@code
 * name} attribute names the field for an operation whose {@code key-field=} differs from the setting.
 *
 * <p>Not thread-safe, as no simple tag is: the container makes one per use.
 */
public class KeyFieldTag extends SimpleTagSupport {
    private String name;

    public void setName(String name) {
        this.name = name;
    }

    @Override
    public void doTag() throws IOException {
        PageContext page = (PageContext) getJspContext();
        HttpServletRequest request = (HttpServletRequest) page.getRequest();
        page.getOut().write(name == null ? FormKeys.hiddenField(request) : FormKeys.hiddenField(request, name));
    }
}
