package dev.idempotency.runtime;

import dev.idempotency.ConfigurationException;
import dev.idempotency.config.IdempotencyConfig;
import dev.idempotency.config.Operation;
import dev.idempotency.config.SettingsParser;
import dev.idempotency.core.HeaderScope;
import dev.idempotency.core.IdempotentExecutor;
import dev.idempotency.core.RecordEncryption;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.metrics.JmxMetrics;
import dev.idempotency.metrics.OutcomeListener;
import dev.idempotency.metrics.ServerMetrics;
import dev.idempotency.rollout.KeylessHistory;
import dev.idempotency.rollout.KeylessTelemetry;
import dev.idempotency.rollout.ProbableDuplicates;
import dev.idempotency.rollout.RolloutModes;
import dev.idempotency.servlet.IdempotentRequestHandler;
import dev.idempotency.store.CounterStore;
import dev.idempotency.store.KeylessDayStore;
import dev.idempotency.store.RecordErasure;
import dev.idempotency.store.RequestResultStore;
import dev.idempotency.store.RolloutStore;
import dev.idempotency.tx.JtaTransaction;
import jakarta.servlet.ServletContext;
import jakarta.transaction.UserTransaction;
import java.time.Clock;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Everything one mapped idempotency filter needs at run time, built once per filter name and kept in the
 * servlet context ({@link RuntimeRegistry}), so the filter, the admin servlet and the start-up check share one
 * configuration, one store, one rollout cache and one set of keyless counters. It composes the parts, each with
 * one job: where the settings come from ({@link SettingsSources}), what the filter accepts of the database
 * ({@link EnginePolicy}), and when the periodic work runs ({@link Housekeeping}, on the {@link ManagedScheduler}
 * or on requests).
 *
 * <p>Thread-safe.
 */
public final class FilterRuntime {
    /** Names a properties file in the WAR that holds the settings, such as {@code /WEB-INF/idempotency.properties}. */
    public static final String INIT_PARAM_CONFIG_FILE = SettingsSources.INIT_PARAM_CONFIG_FILE;

    private static final String USER_TRANSACTION = "java:comp/UserTransaction";
    private static final Logger LOG = Logger.getLogger(FilterRuntime.class.getName());
    /**
     * Request shapes remembered to spot keyless duplicates: about 300 bytes each (a 64-character digest, the
     * client, the map's entry), so about 3 MB at most.
     */
    private static final int RECENT_KEYLESS_REQUESTS = 10_000;

    private final String filterName;
    private final IdempotencyConfig config;
    private final RolloutModes rolloutModes;
    private final KeylessTelemetry keylessTelemetry;
    private final IdempotentRequestHandler handler;
    private final JmxMetrics metrics;
    private final CounterStore counters;
    private final KeylessDayStore keylessDays;
    private final JtaTransaction transaction;
    private final RequestResultStore records;
    private final HeaderScope headerScope;
    private final RecordErasure erasure;
    private final Housekeeping housekeeping;

    private final String dataSourceOrigin;

    private FilterRuntime(
            String filterName,
            IdempotencyConfig config,
            UserTransaction userTransaction,
            ApplicationDataSource.Found dataSource,
            String contextPath) {
        this.filterName = filterName;
        this.config = config;
        SqlDialect dialect = EnginePolicy.accept(config, dataSource.dataSource(), "'" + dataSource.jndiName() + "'");
        this.dataSourceOrigin = dataSourceOrigin(dataSource.jndiName(), dialect, dataSource.origin());
        this.transaction = new JtaTransaction(userTransaction);
        this.records = new RequestResultStore(dataSource.dataSource(), dialect);
        this.headerScope = new HeaderScope(config.scopeHeaderKey());
        this.erasure = new RecordErasure(records, headerScope::erasable);
        this.rolloutModes = new RolloutModes(
                config.rolloutMode(),
                config.rolloutRefresh(),
                transaction,
                new RolloutStore(dataSource.dataSource(), dialect));
        this.metrics = new JmxMetrics(
                contextPath,
                config.operations().stream().map(Operation::contract).collect(Collectors.toList()));
        this.keylessTelemetry = new KeylessTelemetry(
                new KeylessHistory(Clock.systemUTC()),
                new ProbableDuplicates(config.keylessDuplicateWindow(), RECENT_KEYLESS_REQUESTS, System::nanoTime));
        this.keylessDays = new KeylessDayStore(dataSource.dataSource(), dialect);
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
        CounterFlush counterFlush = new CounterFlush(transaction, counters, metrics, keylessTelemetry, keylessDays);
        this.housekeeping = new Housekeeping(
                ManagedScheduler.find(filterName),
                Arrays.asList(
                        new Housekeeping.Task(keylessSummary(), config.keylessLogInterval()),
                        new Housekeeping.Task(counterFlush, config.counterFlushInterval()),
                        new Housekeeping.Task(
                                new ExpiredRecordPurge(
                                        transaction,
                                        records,
                                        keylessDays,
                                        config.purgeBatchSize(),
                                        config.keylessHistoryDays()),
                                config.purgeInterval())),
                // What this node counted since the last flush still counts for the cluster.
                counterFlush,
                System::nanoTime);
    }

    /**
     * The runtime of the filter with this name, built from its settings on first use.
     *
     * @throws ConfigurationException naming the filter and the setting that is wrong
     */
    public static FilterRuntime of(
            ServletContext servletContext, String filterName, Map<String, String> initParameters) {
        return RuntimeRegistry.of(servletContext, filterName, () -> {
            FilterRuntime runtime = create(servletContext, filterName, initParameters);
            LOG.info(() -> startupLine(filterName, runtime.config, runtime.dataSourceOrigin));
            return runtime;
        });
    }

    /**
     * The one INFO line the filter logs when it starts: what it protects, where its records are, and the effective
     * configuration. docs/configuration.md shows it as a test produces it from the sample's settings.
     */
    static String startupLine(String filterName, IdempotencyConfig config, String dataSourceOrigin) {
        return "Idempotency filter '" + filterName + "' protects "
                + config.operations().size() + " operation(s), with records on datasource " + dataSourceOrigin + ": "
                + config;
    }

    /** Which datasource holds the records, on which engine, and how the filter found it. */
    static String dataSourceOrigin(String jndiName, SqlDialect dialect, String origin) {
        return "'" + jndiName + "' (" + dialect.name() + "), " + origin;
    }

    /** The runtime of an already started filter, if there is one by that name. */
    public static Optional<FilterRuntime> find(ServletContext servletContext, String filterName) {
        return RuntimeRegistry.find(servletContext, filterName);
    }

    /** Whether MicroProfile Config names the operations, which installs the filter as the settings file does. */
    public static boolean configuredByMicroProfile(ServletContext servletContext) {
        return SettingsSources.configuredByMicroProfile(servletContext);
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

    /** The cluster-wide keyless history: every node's flushed keyless requests per client and day. */
    public KeylessDayStore keylessDays() {
        return keylessDays;
    }

    /**
     * Deletes every record of one scope in a transaction of its own (see {@link
     * dev.idempotency.IdempotencyRecords}).
     *
     * @return how many records were deleted
     */
    public int eraseScope(String scope) {
        return transaction.inTransaction(() -> erasure.eraseScope(scope));
    }

    /**
     * Deletes every record of the caller whose {@code scope-header} carries {@code headerValue}, under its digest
     * and under the value as an earlier release stored it, in one transaction of its own.
     *
     * @return how many records were deleted
     */
    public int eraseHeaderScope(String headerValue) {
        return transaction.inTransaction(() -> erasure.eraseHeaderScope(headerValue));
    }

    /** What a {@code scope-header} value becomes as a scope, in this filter: the form logs and answers show. */
    public HeaderScope headerScope() {
        return headerScope;
    }

    /** This node's outcome counters, also published over JMX. */
    public JmxMetrics metrics() {
        return metrics;
    }

    /**
     * Called by a covered request before its transaction begins: on a server without a managed scheduler, runs the
     * housekeeping whose interval is over (see {@link Housekeeping}); otherwise does nothing.
     */
    public void requestArrived() {
        housekeeping.requestArrived();
    }

    /** Stops the periodic work, flushes the counters once more, and unregisters the MBeans. */
    public void stop() {
        housekeeping.stop();
        metrics.stop();
    }

    private static FilterRuntime create(
            ServletContext servletContext, String filterName, Map<String, String> initParameters) {
        try {
            IdempotencyConfig config = SettingsParser.parse(SettingsSources.read(initParameters, servletContext));
            ServerApis.requireTransactions(servletContext.getClassLoader());
            return new FilterRuntime(
                    filterName,
                    config,
                    userTransaction(),
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

    private static UserTransaction userTransaction() {
        String cause = "it is not a UserTransaction";
        try {
            if (new InitialContext().lookup(USER_TRANSACTION) instanceof UserTransaction found) {
                return found;
            }
        } catch (NamingException e) {
            cause = e.toString();
        }
        // Seen on Open Liberty with servlet-6.0 and jdbc-4.3 alone: the API is visible, the name is not bound.
        throw new ConfigurationException("no UserTransaction at " + USER_TRANSACTION + " (" + cause + "); the filter"
                + " needs a Jakarta EE container with JTA (on Open Liberty, add the feature jndi-1.0 if no other"
                + " feature brings it)");
    }

    /** Logs the keyless requests counted since start, when they changed since the last summary. */
    private Runnable keylessSummary() {
        // Runs on the scheduler's threads or on request threads, one at a time, but not always on the same thread.
        AtomicReference<String> lastLogged = new AtomicReference<>("");
        return () -> {
            String summary = keylessTelemetry.summary();
            if (!summary.isEmpty() && !summary.equals(lastLogged.getAndSet(summary))) {
                LOG.info("keyless requests to '" + filterName + "' since start: " + summary);
            }
        };
    }
}
