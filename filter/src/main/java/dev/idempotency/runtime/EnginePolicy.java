package dev.idempotency.runtime;

import dev.idempotency.ConfigurationException;
import dev.idempotency.config.IdempotencyConfig;
import dev.idempotency.config.SchemaAction;
import dev.idempotency.dialect.Engine;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.store.FilterSchema;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * What the filter accepts of the database under it, decided once at start-up: which dialect it speaks (the one
 * the {@code database} setting names, or the one detected from the datasource), whether an engine this project's
 * build does not run may be used ({@code untested-engine}; refused by default, a WARNING when allowed), and what
 * becomes of the filter's tables ({@code schema}: validated, created where missing, or left alone). Where the
 * engine itself bounds a duplicate's wait beyond {@code lock-timeout} (Derby), it says so once ({@link
 * LockWaitBound}).
 *
 * <p>Stateless.
 */
final class EnginePolicy {
    private static final Logger LOG = Logger.getLogger(EnginePolicy.class.getName());

    private EnginePolicy() {}

    /**
     * The dialect of the datasource, after the engine is accepted and the schema checked or created.
     *
     * @param dataSourceName how messages name the datasource, such as {@code 'jdbc/sample'}
     * @throws ConfigurationException if the engine is refused, or the schema does not validate
     */
    static SqlDialect accept(IdempotencyConfig config, DataSource dataSource, String dataSourceName) {
        SqlDialect dialect = config.database()
                .map(database -> Engine.dialectNamed(database).forServer(dataSource))
                .orElseGet(() -> Engine.detect(dataSource));
        if (!dialect.engine().tested()) {
            if (!config.allowsUntestedEngine()) {
                throw new ConfigurationException(untestedEngineRefused(dialect));
            }
            LOG.warning(experimentalEngine(dialect));
        }
        FilterSchema schema = new FilterSchema(dataSource, dialect, dataSourceName);
        switch (config.schema()) {
            case VALIDATE -> schema.validate();
            case CREATE -> schema.createMissing();
            case NONE -> {}
        }
        if (!config.database().isPresent() || config.schema() != SchemaAction.NONE) {
            // Only where start-up opens connections anyway: detection or the schema check.
            LockWaitBound.warning(dialect, dataSource, config.lockTimeout()).ifPresent(LOG::warning);
        }
        return dialect;
    }

    /** The start-up refusal of an engine this project's build does not run. */
    static String untestedEngineRefused(SqlDialect dialect) {
        return "the datasource's engine, " + dialect.name() + ", is one this project's build cannot run: its SQL was"
                + " written from the vendor's manual and has never run here. Run the store check against this"
                + " database (docs/engines.md#check-your-database); when every check passes, set untested-engine ="
                + " allow to start the filter on it, knowing that this project has not proven it";
    }

    /** The start-up warning for such an engine, when the user allowed it. */
    static String experimentalEngine(SqlDialect dialect) {
        return "the datasource's engine, " + dialect.name() + ", is EXPERIMENTAL: this project's build does not run"
                + " it, and its SQL was written from the vendor's manual; run the store check against this database"
                + " before relying on it (docs/engines.md#check-your-database)";
    }
}
