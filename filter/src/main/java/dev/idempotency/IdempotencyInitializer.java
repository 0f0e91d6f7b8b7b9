package dev.idempotency;

import dev.idempotency.runtime.FilterRuntime;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import java.net.MalformedURLException;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Installs the filter when the application starts, so adopting it needs no change to the application: if
 * the WAR holds {@value #SETTINGS_FILE} (or MicroProfile Config has {@code idempotency.operations}) and maps
 * no {@link IdempotencyFilter} itself, the filter is
 * registered under the name {@value #FILTER_NAME} for every request ({@code /*}, dispatcher {@code
 * REQUEST}), ahead of the application's own filters. A {@code ServletContainerInitializer} runs even when the
 * WAR's {@code web.xml} is {@code metadata-complete="true"}, which a {@code web-fragment.xml} would not.
 *
 * <p>Every idempotency filter of the application, registered here or mapped in {@code web.xml}, is then
 * started and checked here, so a wrong setting fails the deployment. Without that the check would wait for
 * the first request, because containers such as WildFly initialize filters lazily.
 *
 * <p>Registered through {@code META-INF/services/jakarta.servlet.ServletContainerInitializer}; nothing to
 * configure. A WAR without the settings file and without a mapped filter is left exactly as it was.
 */
public final class IdempotencyInitializer implements ServletContainerInitializer {
    /** The settings file whose presence installs the filter. */
    public static final String SETTINGS_FILE = "/WEB-INF/idempotency.properties";

    /** The name of the filter this initializer registers. */
    public static final String FILTER_NAME = "idempotency";

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext servletContext) {
        List<? extends FilterRegistration> filters = mappedFilters(servletContext);
        if (filters.isEmpty()) {
            if (hasSettingsFile(servletContext)) {
                filters = Collections.singletonList(register(servletContext, true));
            } else if (FilterRuntime.configuredByMicroProfile(servletContext)) {
                filters = Collections.singletonList(register(servletContext, false));
            }
        }
        for (FilterRegistration filter : filters) {
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

    private static List<? extends FilterRegistration> mappedFilters(ServletContext servletContext) {
        return servletContext.getFilterRegistrations().values().stream()
                .filter(filter -> IdempotencyFilter.class.getName().equals(filter.getClassName()))
                .collect(Collectors.toList());
    }

    private static boolean hasSettingsFile(ServletContext servletContext) {
        try {
            return servletContext.getResource(SETTINGS_FILE) != null;
        } catch (MalformedURLException e) {
            throw new IllegalStateException(SETTINGS_FILE + " is a valid resource path", e);
        }
    }

    private static FilterRegistration register(ServletContext servletContext, boolean withSettingsFile) {
        FilterRegistration.Dynamic filter = servletContext.addFilter(FILTER_NAME, IdempotencyFilter.class);
        if (withSettingsFile) {
            filter.setInitParameter(IdempotencyFilter.INIT_PARAM_CONFIG_FILE, SETTINGS_FILE);
        }
        // A filter that does not support async would make startAsync fail for every request it sees, covered
        // or not; the filter refuses asynchronous processing itself, on covered requests only.
        filter.setAsyncSupported(true);
        // First, so the record's transaction encloses whatever the application's filters write.
        filter.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
        return filter;
    }
}
