package dev.idempotency.adopt;

import dev.idempotency.ConfigurationException;
import dev.idempotency.config.IdempotencyConfig;
import dev.idempotency.config.Operation;
import dev.idempotency.config.SettingsParser;
import dev.idempotency.runtime.PersistenceUnits;
import dev.idempotency.runtime.PersistenceUnits.Unit;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Checks a WAR for the filter without deploying it, by the filter's own rules: the settings through its parser,
 * the datasource through its persistence-unit rules, and each operation against the routes the WAR declares.
 * Given settings, it checks the WAR as it would be once adopted (and refuses one that already is); without, it
 * checks a WAR that already holds the jar and the settings file.
 *
 * <p>Stateless and thread-safe.
 */
final class WarCheck {
    static final String SETTINGS_ENTRY = "WEB-INF/idempotency.properties";
    /**
     * The filter's class by name: loading it would need the Servlet API, which the command does not carry
     * ({@code WarCheckTest} holds the name to the class).
     */
    static final String FILTER_CLASS = "dev.idempotency.IdempotencyFilter";

    static final String FILTER_CLASS_ENTRY = FILTER_CLASS.replace('.', '/') + ".class";

    /** A settings file and what to call it in the report. */
    record SettingsFile(String label, byte[] bytes) {}

    private WarCheck() {}

    /**
     * @param settings the settings to adopt the WAR with, or empty to check the settings file the WAR holds
     * @param environment the environment that {@code encryption-keys} may name; {@code null} for an unset variable
     */
    static Report check(WarFile war, Optional<SettingsFile> settings, UnaryOperator<String> environment) {
        Report report = new Report("Idempotency check of " + war.path()
                + settings.map(file -> " with the settings " + file.label())
                        .orElse(" as it is, with its own " + SETTINGS_ENTRY));
        List<String> filterJars = filterJars(war);
        WebXml webXml = webXml(war, report);
        List<ClassFacts> classes = classes(war, filterJars);
        WarNamespace namespace = WarNamespace.of(webXml, classes);
        report.found("EE level " + namespace.level() + "; the filter jar for it is " + namespace.artifact());
        namespace.mixed().ifPresent(report::unverified);
        boolean webXmlMapsFilter = webXml.filterClasses().contains(FILTER_CLASS);
        Optional<SettingsFile> chosen = settings.isPresent()
                ? settings
                : war.entry(SETTINGS_ENTRY).map(bytes -> new SettingsFile(SETTINGS_ENTRY + " in the WAR", bytes));
        if (settings.isPresent()) {
            refuseWhatIsAlreadyThere(war, filterJars, webXmlMapsFilter, report);
        } else {
            requireWhatAdoptionAdds(war, filterJars, chosen.isPresent(), namespace, report);
        }
        checkInstallation(webXml, webXmlMapsFilter, report);

        Optional<IdempotencyConfig> config = chosen.flatMap(file -> parse(file, environment, report));
        checkDataSource(war, config, report);
        ApplicationRoutes routes = ApplicationRoutes.read(webXml, fragments(war, report), classes);
        routes.applicationPaths().forEach(path -> report.found("JAX-RS application path " + path));
        long jaxRs = routes.routes().stream().filter(r -> r.method() != null).count();
        long locators = routes.routes().stream().filter(r -> !r.verified()).count();
        report.found(jaxRs + " JAX-RS resource method(s), " + (routes.routes().size() - jaxRs - locators)
                + " servlet mapping(s)"
                + (locators == 0 ? "" : ", " + locators + " sub-resource locator(s) not followed"));
        routes.notes().forEach(report::note);
        config.ifPresent(c -> c.operations().forEach(operation -> checkOperation(operation, routes, war, report)));
        return report;
    }

    /** The namespace {@code war} is written for, and so the filter jar it needs (see {@link WarNamespace}). */
    static WarNamespace namespaceOf(WarFile war) {
        Report ignored = new Report("");
        return WarNamespace.of(webXml(war, ignored), classes(war, filterJars(war)));
    }

    private static List<String> filterJars(WarFile war) {
        return war.libraryJars().stream()
                .filter(jar -> jar.substring(WarFile.LIB.length()).startsWith("idempotency-filter")
                        || war.jarHolds(jar, FILTER_CLASS_ENTRY))
                .collect(Collectors.toList());
    }

    private static WebXml webXml(WarFile war, Report report) {
        Optional<byte[]> bytes = war.entry(WarFile.WEB_XML);
        if (bytes.isEmpty()) {
            report.found("no WEB-INF/web.xml (annotations only)");
            return WebXml.ABSENT;
        }
        try {
            WebXml webXml = WebXml.parse(bytes.get());
            report.found("WEB-INF/web.xml" + (webXml.metadataComplete() ? ", metadata-complete" : "") + ", "
                    + webXml.servlets().size() + " servlet(s)");
            return webXml;
        } catch (IllegalArgumentException e) {
            report.fails(e.getMessage() + "; the container would refuse the WAR too");
            return WebXml.ABSENT;
        }
    }

    private static void refuseWhatIsAlreadyThere(
            WarFile war, List<String> filterJars, boolean webXmlMapsFilter, Report report) {
        for (String jar : filterJars) {
            report.fails(jar + " is already in the WAR: the copy would have two filter jars; check the WAR without"
                    + " --settings to see what it does today");
        }
        if (war.entry(SETTINGS_ENTRY).isPresent()) {
            report.fails(SETTINGS_ENTRY + " is already in the WAR: the copy would have two; check the WAR without"
                    + " --settings to see what it does today");
        }
        if (webXmlMapsFilter) {
            report.fails("web.xml already maps " + FILTER_CLASS
                    + ": the WAR is adopted by hand, and the added settings would be read only if its config-file"
                    + " init-param named them");
        }
    }

    private static void requireWhatAdoptionAdds(
            WarFile war, List<String> filterJars, boolean hasSettings, WarNamespace namespace, Report report) {
        if (filterJars.isEmpty()) {
            report.fails("no idempotency-filter jar in WEB-INF/lib: nothing would read the settings; adopt the WAR"
                    + " (adopt ... --settings) or give --settings to check it before adoption");
        } else if (filterJars.size() > 1) {
            report.fails("two filter jars in WEB-INF/lib " + filterJars + ": keep one");
        } else {
            report.found("filter jar " + filterJars.get(0));
            checkFilterJarNamespace(war, filterJars.get(0), namespace, report);
        }
        if (!hasSettings) {
            report.fails("no " + SETTINGS_ENTRY + " in the WAR and no --settings given: nothing installs the filter");
        }
    }

    /** The jar of the other namespace would refuse the deployment (its WrongNamespaceInitializer): say so here. */
    private static void checkFilterJarNamespace(WarFile war, String jar, WarNamespace namespace, Report report) {
        try {
            FilterJar filterJar = FilterJar.checked(
                    jar.substring(WarFile.LIB.length()), war.entry(jar).orElseThrow());
            filterJar.mismatch(namespace).ifPresent(report::fails);
        } catch (IOException e) {
            report.unverified("which namespace " + jar + " is built for: " + e.getMessage());
        }
    }

    private static void checkInstallation(WebXml webXml, boolean webXmlMapsFilter, Report report) {
        if (webXml.metadataComplete()) {
            report.note("web.xml is metadata-complete: the container ignores @WebServlet, @WebFilter and"
                    + " web-fragment.xml, but the filter still installs itself through its"
                    + " ServletContainerInitializer, which containers run all the same (the build proves it on a"
                    + " metadata-complete application)");
        }
        if (webXml.excludesUnnamedJars() && !webXmlMapsFilter) {
            report.fails("web.xml has an <absolute-ordering> without <others/>: containers then skip the"
                    + " ServletContainerInitializer of every jar the ordering leaves out (Jakarta Servlet 6.0,"
                    + " 8.2.4), so the filter would never be installed; add <others/> to the ordering, or map"
                    + " the filter in web.xml (docs/getting-started.md)");
        }
    }

    private static Optional<IdempotencyConfig> parse(
            SettingsFile file, UnaryOperator<String> environment, Report report) {
        Properties properties = new Properties();
        try {
            // Read as the filter reads it: java.util.Properties from bytes, so ISO-8859-1 with backslash escapes.
            properties.load(new ByteArrayInputStream(file.bytes()));
        } catch (IOException | IllegalArgumentException e) {
            report.fails("the settings " + file.label() + " could not be read: " + e.getMessage());
            return Optional.empty();
        }
        Map<String, String> settings = new HashMap<>();
        properties.stringPropertyNames().forEach(name -> settings.put(name, properties.getProperty(name)));
        List<String> unset = new ArrayList<>();
        UnaryOperator<String> known = name -> {
            String value = environment.apply(name);
            if (value == null) {
                unset.add(name);
                // Stands in for the server's key so the other settings still get checked.
                return Base64.getEncoder().encodeToString(new byte[32]);
            }
            return value;
        };
        try {
            IdempotencyConfig config = SettingsParser.parse(settings, known);
            report.found("settings " + file.label() + ": " + config.operations().size() + " operation(s), rollout-mode "
                    + config.rolloutMode());
            for (String variable : new TreeSet<>(unset)) {
                report.unverified("encryption-keys names the environment variable " + variable + ", which is not"
                        + " set here: the server must set it, or the deployment fails");
            }
            return Optional.of(config);
        } catch (ConfigurationException e) {
            report.fails("the settings " + file.label() + " do not parse: " + e.getMessage());
            return Optional.empty();
        }
    }

    private static void checkDataSource(WarFile war, Optional<IdempotencyConfig> config, Report report) {
        List<Unit> units = new ArrayList<>();
        String unreadable = null;
        for (WarFile.Found xml : war.onClassPath(PersistenceUnits.PERSISTENCE_XML)) {
            try {
                units.addAll(PersistenceUnits.parse(new ByteArrayInputStream(xml.bytes()), xml.where()));
            } catch (ConfigurationException e) {
                unreadable = e.getMessage();
            }
        }
        if (units.isEmpty()) {
            report.found("no persistence unit");
        }
        for (Unit unit : units) {
            report.found("persistence unit '" + unit.name() + "' ("
                    + (unit.jta()
                            ? "JTA, "
                                    + (unit.jtaDataSource() == null
                                            ? "no jta-data-source: the container's default datasource"
                                            : "jta-data-source " + unit.jtaDataSource())
                            : "RESOURCE_LOCAL")
                    + ") in " + unit.declaredIn());
        }
        if (config.isEmpty()) {
            return;
        }
        if (config.get().dataSource().isPresent()) {
            report.found("records on datasource " + config.get().dataSource().get() + ", from the datasource setting");
            serverMustHave(config.get().dataSource().get(), report);
            return;
        }
        if (unreadable != null) {
            report.fails(unreadable + "; the filter reads it to find the datasource (or set datasource)");
            return;
        }
        try {
            Unit unit = PersistenceUnits.choose(units, config.get().persistenceUnit());
            report.found("records on datasource " + unit.dataSourceJndiName() + ", the JTA datasource of persistence"
                    + " unit '" + unit.name() + "'");
            serverMustHave(unit.dataSourceJndiName(), report);
        } catch (ConfigurationException e) {
            report.fails(e.getMessage());
        }
    }

    private static void serverMustHave(String jndiName, Report report) {
        report.unverified("that " + jndiName + " exists on the server as a JTA datasource and holds the filter's"
                + " tables: the filter checks both at deployment (schema = validate)");
    }

    private static List<WebXml> fragments(WarFile war, Report report) {
        List<WebXml> fragments = new ArrayList<>();
        for (WarFile.Found fragment : war.onClassPath("META-INF/web-fragment.xml")) {
            if (fragment.where().startsWith(WarFile.LIB)) {
                try {
                    fragments.add(WebXml.parse(fragment.bytes()));
                } catch (IllegalArgumentException e) {
                    report.unverified(fragment.where() + " could not be read: " + e.getMessage());
                }
            }
        }
        return fragments;
    }

    /**
     * Whether a Facelets page of the WAR answers this path: with {@code WEB-INF/faces-config.xml}, Mojarra and MyFaces
     * map {@code *.xhtml} to their servlet themselves, so no mapping of the WAR names it, and a page postback goes to
     * the page's own path.
     */
    private static boolean isFacesPage(String path, WarFile war) {
        return path.endsWith(".xhtml")
                && war.entry("WEB-INF/faces-config.xml").isPresent()
                && war.entry(path.substring(1)).isPresent();
    }

    /** The classes of the application and its libraries; the filter's own jar serves no application route. */
    private static List<ClassFacts> classes(WarFile war, List<String> filterJars) {
        return war.classFiles(filterJars::contains).stream()
                .map(found -> ClassFileReader.read(found.bytes(), found.where()))
                .collect(Collectors.toList());
    }

    private static void checkOperation(Operation operation, ApplicationRoutes routes, WarFile war, Report report) {
        String named = operation.method() + " " + operation.route() + " = " + operation.contract();
        List<Route> serving = OperationRoutes.serving(operation, routes.routes());
        List<Route> verified = serving.stream().filter(Route::verified).collect(Collectors.toList());
        String conditions =
                operation.conditions().isEmpty() ? "" : " (its parameter conditions are checked per request, not here)";
        if (!verified.isEmpty()) {
            report.covered(named + " → "
                    + verified.stream().map(Route::servedBy).collect(Collectors.joining(", ")) + conditions);
        } else if (!serving.isEmpty()) {
            report.unverified(named + ": only under "
                    + serving.stream().map(Route::servedBy).collect(Collectors.joining(", ")));
        } else if (isFacesPage(operation.path().toString(), war)) {
            report.covered(
                    named + " → the Faces page " + operation.path().toString().substring(1)
                            + " (the Faces implementation maps *.xhtml itself)" + conditions);
        } else if (!routes.unreadable().isEmpty()) {
            report.unverified(named + ": no route the command could read serves " + operation.method() + " "
                    + operation.path() + ", and some cannot be read: " + String.join("; ", routes.unreadable()));
        } else {
            report.fails(named + ": no JAX-RS method or servlet mapping serves " + operation.method() + " "
                    + operation.path() + "; check the path relative to the context root (it includes the JAX-RS"
                    + " application path, not the context root)");
        }
    }
}
