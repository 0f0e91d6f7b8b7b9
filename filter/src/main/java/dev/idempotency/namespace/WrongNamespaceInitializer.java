package dev.idempotency.namespace;

import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
// The other namespace's Servlet API, on purpose: this is the one class of this jar that an EE 8 server loads.
import javax.servlet.ServletContainerInitializer;
import javax.servlet.ServletContext;
import javax.servlet.ServletException;

/**
 * Fails the deployment of an application that carries the filter jar built for the other Servlet namespace, with
 * one SEVERE line that names the jar to use instead. Without it the wrong jar is silent: a Jakarta EE 8 server
 * looks only for {@code META-INF/services/javax.servlet.ServletContainerInitializer}, so the {@code jakarta} jar's
 * initializer never runs, the filter is never registered, and the application runs unprotected while its owners
 * believe it protected (seen on WildFly 26.1.3).
 *
 * <p>The jar of each namespace carries this class built for the other one, under the other namespace's service
 * file: {@code idempotency-filter} has it as compiled here, against the EE 8 Servlet API, in {@code
 * META-INF/services/javax.servlet.ServletContainerInitializer}; the {@code javax} build swaps the two Servlet
 * namespaces (its renames map {@code jakarta.servlet} to {@code javax.servlet} and this class's {@code javax.servlet}
 * to {@code jakarta.servlet}, service file names included), so {@code idempotency-filter-javax} has it implementing
 * {@code jakarta.servlet}'s initializer. A server therefore only ever runs it when the jar does not match the
 * server, and what it says is derived from the Servlet API it was loaded against, never written per namespace.
 *
 * <p>Stateless and thread-safe.
 */
public final class WrongNamespaceInitializer implements ServletContainerInitializer {
    private static final Logger LOG = Logger.getLogger("dev.idempotency");

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext servletContext) throws ServletException {
        String refusal =
                ServletNamespace.of(ServletContainerInitializer.class.getName()).refusalOfTheOtherJar();
        LOG.log(Level.SEVERE, refusal);
        throw new ServletException(refusal);
    }
}
