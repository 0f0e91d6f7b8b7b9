package dev.idempotency;

import dev.idempotency.internal.FilterRuntime;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import java.util.Set;

/**
 * Checks every {@link IdempotencyFilter} mapped in the application while the application starts, so a
 * wrong setting fails the deployment. Without it the check would wait for the first request, because
 * containers such as WildFly initialize filters lazily.
 *
 * <p>Registered through {@code META-INF/services/jakarta.servlet.ServletContainerInitializer}; nothing to
 * configure.
 */
public final class StartupValidation implements ServletContainerInitializer {
    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext servletContext) {
        for (FilterRegistration filter : servletContext.getFilterRegistrations().values()) {
            if (IdempotencyFilter.class.getName().equals(filter.getClassName())) {
                // Throws ConfigurationException, which the container reports as a failed deployment.
                FilterRuntime runtime = FilterRuntime.of(servletContext, filter.getName(), filter.getInitParameters());
                servletContext.addListener(new ServletContextListener() {
                    @Override
                    public void contextDestroyed(ServletContextEvent event) {
                        runtime.stop();
                    }
                });
            }
        }
    }
}
