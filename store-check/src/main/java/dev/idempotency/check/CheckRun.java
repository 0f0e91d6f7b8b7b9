package dev.idempotency.check;

import dev.idempotency.ConfigurationException;
import dev.idempotency.dialect.Engine;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.store.FilterSchema;
import dev.idempotency.tx.LocalTransactions;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * One run of the store contract against one database: it detects the engine as the filter would, makes the
 * filter's tables in a scratch schema of its own from the jar's DDL (or uses the tables of a given schema),
 * runs every check, and then drops the scratch schema (or deletes the rows it wrote in the given one).
 *
 * <p>Not thread-safe.
 */
final class CheckRun implements AutoCloseable {
    /** The outcome of one check. */
    record Result(String check, boolean passed, String detail, long millis) {}

    private final LocalTransactions.ConnectionSource database;
    private final SqlDialect dialect;
    private final String schema;
    private final boolean scratch;
    private final String description;
    private final StoreContract contract;

    private CheckRun(
            LocalTransactions.ConnectionSource database,
            SqlDialect dialect,
            String schema,
            boolean scratch,
            String description) {
        this.database = database;
        this.dialect = dialect;
        this.schema = schema;
        this.scratch = scratch;
        this.description = description;
        this.contract = new StoreContract(new LocalTransactions(database, dialect, schema), dialect);
    }

    /**
     * @param givenSchema the schema whose tables to check, or {@code null} to create them in a scratch schema
     * @throws ConfigurationException if the engine is not one the filter supports, or the tables are missing or
     *     cannot be created
     * @throws SQLException if the database cannot be reached
     */
    static CheckRun prepare(LocalTransactions.ConnectionSource database, String givenSchema) throws SQLException {
        LocalTransactions plain = new LocalTransactions(database, null, null);
        SqlDialect dialect = Engine.detect(plain);
        String version;
        try (Connection connection = database.open()) {
            DatabaseMetaData metaData = connection.getMetaData();
            version = metaData.getDatabaseProductName() + " " + metaData.getDatabaseProductVersion();
        }
        boolean scratch = givenSchema == null;
        if (scratch && !dialect.hasSchemas()) {
            throw new ConfigurationException(dialect.name() + " has no schemas to make a scratch one in: create the"
                    + " filter's tables from " + dialect.ddlResource() + " in the database (or in a copy of it) and"
                    + " run the check on them with --schema main; it deletes only the rows it wrote");
        }
        String schema =
                scratch ? "idempotency_check_" + UUID.randomUUID().toString().substring(0, 8) : givenSchema;
        if (scratch) {
            try (Connection connection = database.open();
                    Statement statement = connection.createStatement()) {
                for (String create : dialect.createSchemaStatements(schema)) {
                    statement.execute(create);
                }
            }
        }
        CheckRun run = new CheckRun(
                database,
                dialect,
                schema,
                scratch,
                version + ", "
                        + (scratch ? "tables made from the filter's DDL in the scratch schema " : "the tables in ")
                        + schema);
        FilterSchema tables = new FilterSchema(new LocalTransactions(database, dialect, schema), dialect, schema);
        try {
            if (scratch) {
                tables.createMissing();
            } else {
                tables.validate();
            }
        } catch (ConfigurationException e) {
            run.close();
            throw e;
        }
        return run;
    }

    /** The engine, its version and the schema, for the report's first line. */
    String description() {
        return description;
    }

    /** Runs every check, in order, handing each result on as it comes. @return whether all passed */
    boolean runAll(Consumer<Result> results) {
        boolean allPassed = true;
        for (StoreContract.Check check : StoreContract.checks()) {
            Result result = run(check);
            allPassed &= result.passed();
            results.accept(result);
        }
        return allPassed;
    }

    Result run(StoreContract.Check check) {
        long started = System.nanoTime();
        String failure = null;
        try {
            check.body().run(contract);
        } catch (StoreContract.Broken e) {
            failure = e.getMessage();
        } catch (Exception e) {
            failure = "it failed: " + e;
        }
        return new Result(check.name(), failure == null, failure, (System.nanoTime() - started) / 1_000_000);
    }

    @Override
    public void close() throws SQLException {
        contract.close();
        if (!scratch) {
            contract.deleteWhatThisRunWrote();
            return;
        }
        try (Connection connection = database.open();
                Statement statement = connection.createStatement()) {
            for (String drop : dialect.dropSchemaStatements(schema)) {
                statement.execute(drop);
            }
        }
    }
}
