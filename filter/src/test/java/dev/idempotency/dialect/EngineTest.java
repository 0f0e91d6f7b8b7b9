package dev.idempotency.dialect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class EngineTest {
    @Test
    void onlyTheEnginesThisBuildRunsAreTested() {
        assertTrue(Engine.POSTGRESQL.tested());
        assertTrue(Engine.MARIADB.tested());
        assertTrue(Engine.H2.tested());
        for (Engine experimental : List.of(Engine.MYSQL, Engine.SQLSERVER, Engine.ORACLE)) {
            assertFalse(experimental.tested(), experimental.name());
            assertTrue(experimental.description().contains("experimental"), experimental.description());
        }
    }

    @Test
    void sqlServerAndOracleAreKnownByTheNamesTheirDriversReport() {
        assertEquals(Engine.SQLSERVER, Engine.ofProduct("Microsoft SQL Server").orElseThrow());
        assertEquals(Engine.ORACLE, Engine.ofProduct("Oracle").orElseThrow());
        assertEquals(Engine.SQLSERVER, Engine.named("sqlserver").orElseThrow());
        assertEquals(Engine.ORACLE, Engine.named("oracle").orElseThrow());
        assertEquals("META-INF/idempotency/sqlserver.sql", Engine.SQLSERVER.ddlResource());
        assertEquals("META-INF/idempotency/oracle.sql", Engine.ORACLE.ddlResource());
    }

    @Test
    void liquibaseNamesSqlServerMssqlAndTheOthersAsTheSettingDoes() {
        assertEquals("mssql", Engine.SQLSERVER.liquibaseDbms());
        for (Engine engine : Engine.values()) {
            if (engine != Engine.SQLSERVER) {
                assertEquals(engine.settingValue(), engine.liquibaseDbms(), engine.name());
            }
        }
    }

    @Test
    void everyEnginesDdlHasPostgreSqlsTablesAndColumns() throws IOException {
        Map<String, List<String>> postgreSql = tablesAndColumns(statements(Engine.POSTGRESQL.ddlResource()));
        assertEquals(
                List.of(
                        "request_result",
                        "idempotency_rollout",
                        "idempotency_rollout_history",
                        "processed_message",
                        "idempotency_counter",
                        "idempotency_keyless_day"),
                List.copyOf(postgreSql.keySet()));
        for (Engine engine : Engine.values()) {
            assertEquals(postgreSql, tablesAndColumns(statements(engine.ddlResource())), engine.name());
        }
    }

    @Test
    void everyEnginesDdlIndexesTheExpiryAndProcessedTimes() throws IOException {
        for (Engine engine : Engine.values()) {
            String ddl = statements(engine.ddlResource());
            assertTrue(ddl.contains("request_result_expires_at"), engine.name());
            assertTrue(ddl.contains("processed_message_processed_at"), engine.name());
        }
    }

    @Test
    void sqlServerKeysCompareByCodePointAndItsPrimaryKeysFitTheNonclusteredLimit() throws IOException {
        String ddl = statements(Engine.SQLSERVER.ddlResource());

        assertEquals(15, count(ddl, "COLLATE Latin1_General_100_BIN2"), ddl);
        assertEquals(4, count(ddl, "PRIMARY KEY NONCLUSTERED"), ddl);
        assertEquals(2, count(ddl, "CREATE CLUSTERED INDEX"), ddl);
        // 1,700 bytes is the nonclustered index key limit; NVARCHAR takes two bytes a character.
        assertTrue(3 * 255 * 2 <= 1700 && 4 * 191 * 2 <= 1700 && 3 * 191 * 2 + 10 * 2 <= 1700);
        assertTrue(ddl.contains("request_key      NVARCHAR(255)"), ddl);
    }

    @Test
    void oracleDdlQuotesTheReservedModeAndLetsTheEmptyCounterColumnsBeNull() throws IOException {
        String ddl = statements(Engine.ORACLE.ddlResource());

        assertTrue(ddl.contains("\"MODE\"     VARCHAR2(16)"), ddl);
        assertFalse(ddl.contains("COLLATE"), ddl);
        assertTrue(ddl.contains("principal  VARCHAR2(191 CHAR),"), ddl);
        assertTrue(ddl.contains("user_agent VARCHAR2(191 CHAR),"), ddl);
        assertTrue(ddl.contains("UNIQUE (operation, counter, principal, user_agent)"), ddl);
        assertTrue(ddl.contains("request_key      VARCHAR2(255 CHAR) NOT NULL"), ddl);
    }

    /** Each CREATE TABLE's name and its column names, lower-case and unquoted, in the script's order. */
    private static Map<String, List<String>> tablesAndColumns(String ddl) {
        Map<String, List<String>> tables = new LinkedHashMap<>();
        Matcher table = Pattern.compile("CREATE TABLE (?:IF NOT EXISTS )?(\\w+) \\((.*?)\\n\\)", Pattern.DOTALL)
                .matcher(ddl);
        Pattern column = Pattern.compile("^\\s+(\"?\\w+\"?)\\s");
        while (table.find()) {
            List<String> columns = new ArrayList<>();
            for (String line : table.group(2).split("\n")) {
                Matcher name = column.matcher(line);
                if (name.find() && !name.group(1).matches("CONSTRAINT|PRIMARY|UNIQUE|CHECK|INDEX")) {
                    columns.add(name.group(1).replace("\"", "").toLowerCase(Locale.ROOT));
                }
            }
            tables.put(table.group(1), columns);
        }
        return tables;
    }

    private static int count(String text, String part) {
        return text.split(Pattern.quote(part), -1).length - 1;
    }

    @Test
    void mysqlHasItsOwnDdlTheMariaDbOneWithMySqlsBinaryNoPadKeys() throws IOException {
        String mariaDb = statements("META-INF/idempotency/mariadb.sql");
        String mySql = statements(Engine.MYSQL.ddlResource());

        assertEquals("META-INF/idempotency/mysql.sql", Engine.MYSQL.ddlResource());
        assertEquals(mariaDb.replace("utf8mb4_nopad_bin", "utf8mb4_0900_bin"), mySql);
        assertFalse(mySql.contains("nopad"), mySql);
    }

    /** The script without its comment lines. */
    private static String statements(String resource) throws IOException {
        try (InputStream in = EngineTest.class.getClassLoader().getResourceAsStream(resource)) {
            List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .filter(line -> !line.startsWith("--"))
                    .toList();
            return String.join("\n", lines).strip();
        }
    }
}
