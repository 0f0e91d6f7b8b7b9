package dev.idempotency.check;

import dev.idempotency.build.GeneratedSection;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/engines.md lists the store check's checks as {@link StoreContract#checks()} holds them, count included. */
class StoreChecksDocumentationTest {
    @Test
    void engineDocsListEveryCheckOfTheStoreCheck() {
        List<StoreContract.Check> checks = StoreContract.checks();
        StringBuilder text =
                new StringBuilder(checks.size() + " checks, each a `PASS` or `FAIL` line of the report:\n\n");
        for (int i = 0; i < checks.size(); i++) {
            text.append(i + 1).append(". ").append(checks.get(i).name()).append('\n');
        }
        GeneratedSection.check(Path.of("../docs/engines.md"), "store-checks", text.toString());
    }
}
