package dev.idempotency.check;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * SQLite 3 in a file, in WAL mode so that readers never wait for the writer; no users. A file and not an
 * in-memory database, because the engine's locking between connections is what is under test. A namespace is a
 * file of its own.
 *
 * <p>Thread-safe.
 */
public final class SqliteConfig extends EngineConfig {
    private final Supplier<Path> file;

    private SqliteConfig(Supplier<Path> file) {
        this.file = file;
    }

    /** A new database file under {@code target/sqlite}. */
    public static SqliteConfig newFile() {
        Path file;
        try {
            Path directory = Files.createDirectories(Path.of("target", "sqlite").toAbsolutePath());
            file = Files.createTempFile(directory, "idempotency-", ".db");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new SqliteConfig(() -> file);
    }

    /**
     * The file another side writes too, such as WildFly's {@code SqliteDS} in the server's data directory; it is
     * made by whichever side opens it first.
     */
    public static SqliteConfig inFile(Supplier<Path> file) {
        return new SqliteConfig(file);
    }

    @Override
    public String name() {
        return "sqlite";
    }

    @Override
    public String url(String namespace) {
        return "jdbc:sqlite:" + (namespace == null ? file.get() + "?journal_mode=WAL" : namespace);
    }

    @Override
    public String user() {
        return null;
    }

    @Override
    public String password() {
        return null;
    }

    /** A new file under {@code target/sqlite-namespaces}; its absolute path is its name. */
    @Override
    public String createNamespace(String name) {
        try {
            return Files.createDirectories(Path.of("target", "sqlite-namespaces"))
                    .resolve(name + ".db")
                    .toAbsolutePath()
                    .toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String schemaName(String namespace) {
        return null;
    }

    /** A file is its namespace, so the query takes no parameter; STRICT tables keep the declared types. */
    @Override
    public String catalogQuery(String excludedTables) {
        return "SELECT m.name || ' ' || c.name || ' ' || c.type || ' ' || c.\"notnull\""
                + " FROM sqlite_master m JOIN pragma_table_info(m.name) c WHERE m.type = 'table'"
                + " AND m.name NOT IN " + excludedTables + " UNION ALL SELECT tbl_name || ' index ' || name"
                + " FROM sqlite_master WHERE type = 'index' AND tbl_name NOT IN " + excludedTables
                + " ORDER BY 1";
    }
}
