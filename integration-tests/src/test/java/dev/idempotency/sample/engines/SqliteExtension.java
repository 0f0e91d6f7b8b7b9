package dev.idempotency.sample.engines;

import java.nio.file.Path;
import javax.sql.DataSource;
import org.sqlite.SQLiteDataSource;

/**
 * The test JVM's connection to the SQLite file that WildFly's {@code SqliteDS} writes, in the server's data
 * directory. Nothing to start: the file is made by whichever side opens it first.
 */
final class SqliteExtension {
    private SqliteExtension() {}

    static DataSource dataSource() {
        Path file = Path.of(System.getProperty("jboss.home"), "standalone", "data", "idempotency-sqlite.db");
        SQLiteDataSource dataSource = new SQLiteDataSource();
        dataSource.setUrl("jdbc:sqlite:" + file + "?journal_mode=WAL");
        return dataSource;
    }
}
