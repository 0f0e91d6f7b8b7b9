package dev.idempotency.sample.view;

import dev.idempotency.IdempotentExecution;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * An application without CDI (no beans.xml, no bean-defining annotation: {@code @WebServlet} is none): reads its
 * key from the request attribute, and reports whether the server made it a CDI application anyway.
 */
@WebServlet("/views")
public class PlainViewServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        IdempotentExecution execution =
                (IdempotentExecution) request.getAttribute(IdempotentExecution.REQUEST_ATTRIBUTE);
        response.setContentType("application/json");
        response.getWriter()
                .write("{\"covered\":" + (execution != null)
                        + (execution == null
                                ? ""
                                : ",\"scope\":\"" + execution.scope() + "\",\"operation\":\"" + execution.operation()
                                        + "\",\"key\":\"" + execution.key() + "\",\"firstExecution\":"
                                        + execution.isFirstExecution())
                        + ",\"beanManagerBound\":" + beanManagerBound()
                        + ",\"cdiCurrent\":" + cdiCurrentWorks() + "}");
    }

    /** WildFly binds java:comp/BeanManager only in deployments Weld runs for. */
    private static boolean beanManagerBound() {
        try {
            return new InitialContext().lookup("java:comp/BeanManager") != null;
        } catch (NamingException e) {
            return false;
        }
    }

    /** Without a CDI container for this application, CDI.current() throws. */
    private static boolean cdiCurrentWorks() {
        try {
            return CDI.current().getBeanManager() != null;
        } catch (IllegalStateException e) {
            return false;
        }
    }
}
