package dev.idempotency.runtime;

import dev.idempotency.ConfigurationException;
import dev.idempotency.config.IdempotencyConfig;
import dev.idempotency.config.Operation;
import dev.idempotency.config.SchemaAction;
import dev.idempotency.config.SettingsParser;
import dev.idempotency.core.HeaderScope;
import dev.idempotency.core.IdempotentExecutor;
import dev.idempotency.core.RecordEncryption;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.metrics.JmxMetrics;
import dev.idempotency.metrics.OutcomeListener;
import dev.idempotency.metrics.ServerMetrics;
import dev.idempotency.rollout.KeylessTelemetry;
import dev.idempotency.rollout.RolloutModes;
import dev.idempotency.servlet.IdempotentRequestHandler;
import dev.idempotency.store.CounterStore;
import dev.idempotency.store.FilterSchema;
import dev.idempotency.store.RequestResultStore;
import dev.idempotency.tx.JtaTransaction;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.servlet.ServletContext;
import jakarta.transaction.UserTransaction;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Everything one mapped idempotency filter needs at run time, built once per filter name and kept in the
 * servlet context, so the filter, the admin servlet and the start-up check share one configuration, one
 * rollout cache and one set of keyless counters.
 *
 * <p>Thread-safe.
 */
public final class FilterRuntime {
    /** Names a properties file in the WAR that holds the settings, such as {@code /WEB-INF/idempotency.properties}. */
    public static final String INIT_PARAM_CONFIG_FILE = "config-file";

    private static final String ATTRIBUTE_PREFIX = FilterRuntime.class.getName() + ".";
    private static final String USER_TRANSACTION = "java:comp/UserTransaction";
    private static final String SCHEDULER = "java:comp/DefaultManagedScheduledExecutorService";
    private static final Logger LOG = Logger.getLogger(FilterRuntime.class.getName());

    private final String filterName;
    private final IdempotencyConfig config;
    private final RolloutModes rolloutModes;
    private final KeylessTelemetry keylessTelemetry = new KeylessTelemetry();
    private final IdempotentRequestHandler handler;
    private final JmxMetrics metrics;
    private final ScheduledFuture<?> keylessSummary;
    private final ScheduledFuture<?> purge;
    private final CounterFlush counterFlush;
    private final ScheduledFuture<?> counterFlushes;
    private final CounterStore counters;
    private final JtaTransaction transaction;
    private final RequestResultStore records;
    private final HeaderScope headerScope;

    private final String dataSourceOrigin;

    private FilterRuntime(
            String filterName,
            IdempotencyConfig config,
            UserTransaction userTransaction,
            ApplicationDataSource.Found dataSource,
            String contextPath) {
        this.filterName = filterName;
        this.config = config;
        SqlDialect dialect = config.database()
                .map(database -> SqlDialect.named(database).forServer(dataSource.dataSource()))
                .orElseGet(() -> SqlDialect.detect(dataSource.dataSource()));
        this.dataSourceOrigin = "'" + dataSource.jndiName() + "' (" + dialect.name() + "), " + dataSource.origin();
        if (!dialect.engine().tested()) {
            if (!config.allowsUntestedEngine()) {
                throw new ConfigurationException(untestedEngineRefused(dialect));
            }
            LOG.warning(experimentalEngine(dialect));
        }
        FilterSchema schema = new FilterSchema(dataSource.dataSource(), dialect, "'" + dataSource.jndiName() + "'");
        switch (config.schema()) {
            case VALIDATE -> schema.validate();
            case CREATE -> schema.createMissing();
            case NONE -> {}
        }
        if (config.database().isEmpty() || config.schema() != SchemaAction.NONE) {
            // Only where start-up opens connections anyway: detection or the schema check.
            LockWaitBound.warning(dialect, dataSource.dataSource(), config.lockTimeout())
                    .ifPresent(LOG::warning);
        }
        this.transaction = new JtaTransaction(userTransaction);
        this.records = new RequestResultStore(dataSource.dataSource(), dialect);
        this.headerScope = new HeaderScope(config.scopeHeaderKey());
        this.rolloutModes = new RolloutModes(
                config.rolloutMode(), config.rolloutRefresh(), transaction, dataSource.dataSource(), dialect);
        this.metrics = new JmxMetrics(
                contextPath,
                config.operations().stream().map(Operation::contract).toList());
        OutcomeListener listener = OutcomeListener.all(metrics, new ServerMetrics(contextPath));
        // The one executor, over the one store that erasure uses too.
        IdempotentExecutor executor = new IdempotentExecutor(
                transaction,
                records,
                new RecordEncryption(config.encryptionKeys(), config.encryptedOperations()),
                config.lockTimeout(),
                config.transactionTimeout(),
                listener);
        this.handler = new IdempotentRequestHandler(config, executor, headerScope, keylessTelemetry, listener);
        this.counters = new CounterStore(dataSource.dataSource(), dialect);
        this.counterFlush = new CounterFlush(transaction, counters, metrics, keylessTelemetry);
        Optional<ManagedScheduledExecutorService> scheduler = lookup(SCHEDULER, ManagedScheduledExecutorService.class);
        if (scheduler.isEmpty()) {
            LOG.warning("no " + SCHEDULER + "; expired records are not purged and keyless counts are not logged");
        }
        this.keylessSummary = scheduler.map(this::scheduleKeylessSummary).orElse(null);
        long flushSeconds = config.counterFlushInterval().toSeconds();
        this.counterFlushes = scheduler
                .map(s -> s.scheduleWithFixedDelay(counterFlush, flushSeconds, flushSeconds, TimeUnit.SECONDS))
                .orElse(null);
        long purgeSeconds = config.purgeInterval().toSeconds();
        this.purge = scheduler
                .map(s -> s.scheduleWithFixedDelay(
                        new ExpiredRecordPurge(transaction, dataSource.dataSource(), dialect, config.purgeBatchSize()),
                        purgeSeconds,
                        purgeSeconds,
                        TimeUnit.SECONDS))
                .orElse(null);
    }

    /**
     * The runtime of the filter with this name, built from its settings on first use.
     *
     * @throws ConfigurationException naming the filter and the setting that is wrong
     */
    public static FilterRuntime of(
            ServletContext servletContext, String filterName, Map<String, String> initParameters) {
        synchronized (servletContext) {
            Object existing = servletContext.getAttribute(ATTRIBUTE_PREFIX + filterName);
            if (existing instanceof FilterRuntime runtime) {
                return runtime;
            }
            FilterRuntime runtime = create(servletContext, filterName, initParameters);
            servletContext.setAttribute(ATTRIBUTE_PREFIX + filterName, runtime);
            LOG.info(() -> "Idempotency filter '" + filterName + "' protects "
                    + runtime.config.operations().size() + " operation(s), with records on datasource "
                    + runtime.dataSourceOrigin + ": " + runtime.config);
            return runtime;
        }
    }

    /** The start-up warning for an engine this project's build does not run. */
    static String untestedEngineRefused(SqlDialect dialect) {
        return "the datasource's engine, " + dialect.name() + ", is one this project's build cannot run: its SQL was"
                + " written from the vendor's manual and has never run here. Run the store check against this"
                + " database (docs/engines.md#check-your-database); when every check passes, set untested-engine ="
                + " allow to start the filter on it, knowing that this project has not proven it";
    }

    static String experimentalEngine(SqlDialect dialect) {
        return "the datasource's engine, " + dialect.name() + ", is EXPERIMENTAL: this project's build does not run"
                + " it, and its SQL was written from the vendor's manual; run the store check against this database"
                + " before relying on it (docs/engines.md#check-your-database)";
    }

    /** The runtime of an already started filter, if there is one by that name. */
    public static Optional<FilterRuntime> find(ServletContext servletContext, String filterName) {
        return Optional.ofNullable(servletContext.getAttribute(ATTRIBUTE_PREFIX + filterName))
                .map(FilterRuntime.class::cast);
    }

    public IdempotencyConfig config() {
        return config;
    }

    public RolloutModes rolloutModes() {
        return rolloutModes;
    }

    public KeylessTelemetry keylessTelemetry() {
        return keylessTelemetry;
    }

    public IdempotentRequestHandler handler() {
        return handler;
    }

    /** The cluster-wide counters: every node's flushed outcome and keyless counts, summed. */
    public CounterStore counters() {
        return counters;
    }

    /**
     * Deletes every record of one scope in a transaction of its own (see {@link
     * dev.idempotency.IdempotencyRecords}).
     *
     * @return how many records were deleted
     */
    public int eraseScope(String scope) {
        return transaction.inTransaction(() -> records.deleteScope(scope));
    }

    /**
     * Deletes every record of the caller whose {@code scope-header} carries {@code headerValue}, under its digest
     * and under the value as an earlier release stored it, in one transaction of its own.
     *
     * @return how many records were deleted
     */
    public int eraseHeaderScope(String headerValue) {
        return transaction.inTransaction(() -> headerScope.erasable(headerValue).stream()
                .mapToInt(records::deleteScope)
                .sum());
    }

    /** What a {@code scope-header} value becomes as a scope, in this filter: the form logs and answers show. */
    public HeaderScope headerScope() {
        return headerScope;
    }

    /** This node's outcome counters, also published over JMX. */
    public JmxMetrics metrics() {
        return metrics;
    }

    /** Stops the periodic keyless summary and purge, and unregisters the MBeans; the application is going away. */
    public void stop() {
        for (ScheduledFuture<?> task : new ScheduledFuture<?>[] {keylessSummary, purge, counterFlushes}) {
            if (task != null) {
                task.cancel(false);
            }
        }
        // What this node counted since the last flush still counts for the cluster.
        counterFlush.run();
        metrics.stop();
    }

    private static FilterRuntime create(
            ServletContext servletContext, String filterName, Map<String, String> initParameters) {
        try {
            IdempotencyConfig config = SettingsParser.parse(settings(initParameters, servletContext));
            UserTransaction userTransaction = lookup(USER_TRANSACTION, UserTransaction.class)
                    .orElseThrow(() -> new ConfigurationException("no UserTransaction at " + USER_TRANSACTION
                            + "; the filter needs a Jakarta EE container with JTA"));
            return new FilterRuntime(
                    filterName,
                    config,
                    userTransaction,
                    ApplicationDataSource.find(config, servletContext),
                    servletContext.getContextPath());
        } catch (ConfigurationException e) {
            ConfigurationException refusal =
                    new ConfigurationException("idempotency filter '" + filterName + "': " + e.getMessage());
            // Some containers (Open Liberty) keep a failed initializer's exception out of their console and
            // log; this line is what tells the operator why the application did not start.
            LOG.severe("The application at '" + servletContext.getContextPath() + "' cannot start: "
                    + refusal.getMessage());
            throw refusal;
        }
    }

    private ScheduledFuture<?> scheduleKeylessSummary(ManagedScheduledExecutorService scheduler) {
        long seconds = config.keylessLogInterval().toSeconds();
        String[] lastLogged = {""};
        return scheduler.scheduleAtFixedRate(
                () -> {
                    String summary = keylessTelemetry.summary();
                    if (!summary.isEmpty() && !summary.equals(lastLogged[0])) {
                        LOG.info("keyless requests to '" + filterName + "' since start: " + summary);
                        lastLogged[0] = summary;
                    }
                },
                seconds,
                seconds,
                TimeUnit.SECONDS);
    }

    /**
     * Every setting from its one place: init-params, the properties file named by {@code config-file}, and
     * MicroProfile Config ({@code idempotency.<setting>}) where the server has it.
     *
     * @throws ConfigurationException if a setting is given in two places
     */
    private static Map<String, String> settings(Map<String, String> initParameters, ServletContext servletContext) {
        Map<String, String> parameters = new HashMap<>(initParameters);
        String file = parameters.remove(INIT_PARAM_CONFIG_FILE);
        Map<String, String> settings = new HashMap<>();
        Map<String, String> places = new HashMap<>();
        merge(settings, places, parameters, name -> "as an init-param");
        if (file != null) {
            merge(settings, places, readFile(servletContext, file), name -> "in '" + file + "'");
        }
        if (MicroProfileSettings.isAvailable(servletContext.getClassLoader())) {
            merge(
                    settings,
                    places,
                    MicroProfileSettings.read(servletContext.getClassLoader()),
                    name -> "in MicroProfile Config (" + MicroProfileSettings.PREFIX + name + ")");
        }
        return settings;
    }

    /** Whether MicroProfile Config names the operations, which installs the filter as the settings file does. */
    public static boolean configuredByMicroProfile(ServletContext servletContext) {
        return MicroProfileSettings.isAvailable(servletContext.getClassLoader())
                && MicroProfileSettings.namesOperations(servletContext.getClassLoader());
    }

    private static void merge(
            Map<String, String> settings,
            Map<String, String> places,
            Map<String, String> source,
            Function<String, String> place) {
        for (Map.Entry<String, String> setting : source.entrySet()) {
            String name = setting.getKey();
            if (settings.containsKey(name)) {
                throw new ConfigurationException("'" + name + "' is set both " + places.get(name) + " and "
                        + place.apply(name) + "; set it in one place");
            }
            settings.put(name, setting.getValue());
            places.put(name, place.apply(name));
        }
    }

    private static Map<String, String> readFile(ServletContext servletContext, String file) {
        Properties properties = new Properties();
        try (InputStream in = servletContext.getResourceAsStream(file)) {
            if (in == null) {
                throw new ConfigurationException(INIT_PARAM_CONFIG_FILE + ": no file '" + file + "' in the WAR");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new ConfigurationException(INIT_PARAM_CONFIG_FILE + ": '" + file + "' could not be read: " + e);
        }
        Map<String, String> settings = new HashMap<>();
        for (String name : properties.stringPropertyNames()) {
            settings.put(name, properties.getProperty(name));
        }
        return settings;
    }

    private static <T> Optional<T> lookup(String name, Class<T> type) {
        try {
            Object found = new InitialContext().lookup(name);
            return type.isInstance(found) ? Optional.of(type.cast(found)) : Optional.empty();
        } catch (NamingException e) {
            return Optional.empty();
        }
    }
}
