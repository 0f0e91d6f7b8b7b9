package dev.idempotency.dialect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class EngineTest {
    @Test
    void onlyTheEnginesThisBuildRunsAreTested() {
        assertTrue(Engine.POSTGRESQL.tested());
        assertTrue(Engine.MARIADB.tested());
        assertTrue(Engine.H2.tested());
        assertFalse(Engine.MYSQL.tested());
        assertTrue(Engine.MYSQL.description().contains("experimental"), Engine.MYSQL.description());
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
