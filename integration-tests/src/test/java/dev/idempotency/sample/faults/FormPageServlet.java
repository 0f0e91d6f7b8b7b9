package dev.idempotency.sample.faults;

import dev.idempotency.forms.FormKeys;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** A form rendered by a plain servlet with the one-line call: a new key field on every render. */
@WebServlet("/api/test-form-page")
public class FormPageServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String field = FormKeys.hiddenField(request);
        response.setContentType("text/html;charset=UTF-8");
        response.getWriter()
                .write("<form method=\"post\" action=\"test-form-params\">" + field
                        + "<input name=\"name\"><button>Send</button></form>");
    }
}
