package dev.idempotency.sample.faults;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Test-only: reads one MBean from the server's platform MBean server, as a JMX console would, and answers
 * its attributes as {@code name=value} lines. {@code GET /test-jmx?name=<object name>}, optionally with
 * {@code &attribute=<one attribute>}.
 */
@WebServlet("/test-jmx")
public class JmxReaderServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain;charset=UTF-8");
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName(request.getParameter("name"));
            StringBuilder out = new StringBuilder();
            String only = request.getParameter("attribute");
            if (only != null) {
                response.getWriter().write(only + "=" + server.getAttribute(name, only) + "\n");
                return;
            }
            for (MBeanAttributeInfo attribute : server.getMBeanInfo(name).getAttributes()) {
                out.append(attribute.getName())
                        .append('=')
                        .append(server.getAttribute(name, attribute.getName()))
                        .append('\n');
            }
            response.getWriter().write(out.toString());
        } catch (Exception e) {
            response.setStatus(404);
            response.getWriter().write(e.toString());
        }
    }
}
