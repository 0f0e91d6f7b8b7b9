package dev.idempotency.config;

import dev.idempotency.ConfigurationException;
import java.util.Locale;

/** What the filter does at start-up about its tables: the {@code schema} setting. */
public enum SchemaAction {
    /** Check that every table exists with the columns the filter uses; fail the deployment otherwise. */
    VALIDATE,
    /**
     * Create the tables that are missing from the DDL in the jar, then check them: for in-memory and embedded
     * databases that no migration tool reaches.
     */
    CREATE,
    /** Check nothing, for a datasource that is not reachable when the application starts. */
    NONE;

    /** @throws ConfigurationException naming the setting, the allowed values and the bad one */
    public static SchemaAction parse(String setting, String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(setting + " must be one of validate, create or none, was '" + value + "'");
        }
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
