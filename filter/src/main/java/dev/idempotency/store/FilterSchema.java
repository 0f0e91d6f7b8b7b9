package dev.idempotency.store;

import dev.idempotency.ConfigurationException;
import dev.idempotency.dialect.SqlDialect;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * The filter's tables on the application's datasource, checked at start-up so that missing tables fail the
 * deployment with the DDL to run, instead of every keyed request getting a 503 that no retry can cure; and
 * created from the jar's DDL where no migration tool can reach the database.
 *
 * <p>A table counts as present when a query of every column the filter uses succeeds on it, resolved as the
 * filter's own statements will be (search path, current schema, identifier case).
 *
 * <p>Stateless and thread-safe.
 */
public final class FilterSchema {
    private static final Logger LOG = Logger.getLogger(FilterSchema.class.getName());

    /** Each table the HTTP filter reads or writes, with the columns it uses; the primary key's first. */
    private static final Map<String, String> TABLES = new LinkedHashMap<>();

    static {
        TABLES.put(
                "request_result",
                "scope, operation, request_key, request, response_status, response_headers, response_body,"
                        + " created_at, expires_at");
        TABLES.put("idempotency_rollout", "operation, mode, changed_by, changed_at");
        TABLES.put("idempotency_rollout_history", "id, operation, mode, changed_by, changed_at");
        TABLES.put("idempotency_counter", "operation, counter, principal, user_agent, count, updated_at");
        TABLES.put(
                "idempotency_keyless_day",
                "operation, principal, user_agent, utc_day, requests, duplicates, first_seen, last_seen");
    }

    private final DataSource dataSource;
    private final SqlDialect dialect;
    private final String dataSourceName;

    /** @param dataSourceName how the datasource is named in messages, such as its JNDI name */
    public FilterSchema(DataSource dataSource, SqlDialect dialect, String dataSourceName) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.dataSourceName = dataSourceName;
    }

    /**
     * @throws ConfigurationException naming the datasource, the engine, the missing tables and the DDL to run,
     *     if a table is missing or lacks a column, or the database cannot be reached
     */
    public void validate() {
        List<String> missing = missingTables();
        if (!missing.isEmpty()) {
            throw new ConfigurationException("the datasource " + dataSourceName + " (" + dialect.name() + ") lacks"
                    + " the filter's table(s) " + missing + ", or some of their columns; run "
                    + dialect.ddlResource() + " from the filter's jar (or its Flyway or Liquibase migration, see"
                    + " docs/getting-started.md) on that database before deploying, or set schema = create to"
                    + " have the filter create them, or schema = none to skip this check");
        }
    }

    /**
     * Creates the missing tables from the jar's DDL, then validates. Safe when several nodes start at once: a
     * statement that fails because another node created the same table first is ignored, and the final check
     * decides.
     *
     * @throws ConfigurationException as {@link #validate()} does, with the first creation failure attached
     */
    public void createMissing() {
        if (missingTables().isEmpty()) {
            return;
        }
        SQLException firstFailure = null;
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            for (String ddl : statements(dialect.ddlResource())) {
                try {
                    statement.execute(ddl);
                } catch (SQLException e) {
                    firstFailure = firstFailure == null ? e : firstFailure;
                }
            }
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        } catch (SQLException e) {
            throw unreachable(e);
        }
        try {
            validate();
        } catch (ConfigurationException e) {
            throw new ConfigurationException(
                    e.getMessage() + (firstFailure == null ? "" : "; creating them failed: " + firstFailure));
        }
        LOG.info("created the filter's tables on " + dataSourceName + " from " + dialect.ddlResource());
    }

    private List<String> missingTables() {
        List<String> missing = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            for (Map.Entry<String, String> table : TABLES.entrySet()) {
                try {
                    statement
                            .executeQuery(
                                    "SELECT " + columns(table.getValue()) + " FROM " + table.getKey() + " WHERE 1 = 0")
                            .close();
                } catch (SQLException e) {
                    missing.add(table.getKey());
                    // PostgreSQL refuses every later statement of a failed transaction, were one open.
                    if (!connection.getAutoCommit()) {
                        connection.rollback();
                    }
                }
            }
        } catch (SQLException e) {
            throw unreachable(e);
        }
        return missing;
    }

    /** The columns as the engine's SQL names them: Oracle must quote MODE, a reserved word there. */
    private String columns(String columns) {
        return Arrays.stream(columns.split(", ")).map(dialect::column).collect(Collectors.joining(", "));
    }

    private ConfigurationException unreachable(SQLException e) {
        return new ConfigurationException("could not open a connection to " + dataSourceName + " to check the"
                + " filter's tables (" + e.getMessage() + "); make the database reachable at start-up, or set"
                + " schema = none to skip the check");
    }

    /** The DDL script's statements: comment lines dropped, split at each {@code ;} that ends a line. */
    static List<String> statements(String resource) {
        StringBuilder code = new StringBuilder();
        try (InputStream in = FilterSchema.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the filter's jar lacks " + resource);
            }
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))
                    .lines()
                    .filter(line -> !line.trim().startsWith("--"))
                    .forEach(line -> code.append(line).append('\n'));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> statements = new ArrayList<>();
        for (String statement : code.toString().split(";\\s*\\n")) {
            if (!statement.trim().isEmpty()) {
                statements.add(statement.trim());
            }
        }
        return statements;
    }
}
