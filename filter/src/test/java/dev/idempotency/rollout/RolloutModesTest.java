package dev.idempotency.rollout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.idempotency.store.RolloutStore;
import dev.idempotency.testing.H2Database;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The rollout modes every node reads from the table, on a real H2 with local transactions. */
class RolloutModesTest {
    private final H2Database database = new H2Database();

    private RolloutModes node(Duration refresh) {
        return new RolloutModes(
                RolloutMode.OPTIONAL,
                refresh,
                database.transactions(),
                new RolloutStore(database.transactions(), H2Database.DIALECT));
    }

    @Test
    void anOperationNobodySwitchedHasTheDefaultMode() {
        RolloutModes.Setting setting = node(Duration.ZERO).settingFor("debit:v1");

        assertEquals(RolloutMode.OPTIONAL, setting.mode());
        assertNull(setting.changedBy());
    }

    @Test
    void aSwitchHoldsAtOnceOnTheNodeThatMadeItAndIsKeptInTheHistory() throws Exception {
        RolloutModes node = node(Duration.ofHours(1));
        node.settingFor("debit:v1");

        node.change("debit:v1", RolloutMode.REQUIRED, "operator");
        node.change("debit:v1", RolloutMode.DRAIN, "operator");

        RolloutModes.Setting setting = node.settingFor("debit:v1");
        assertEquals(RolloutMode.DRAIN, setting.mode());
        assertEquals("operator", setting.changedBy());
        assertEquals(1, database.count("SELECT count(*) FROM idempotency_rollout"));
        assertEquals(2, database.count("SELECT count(*) FROM idempotency_rollout_history"));
    }

    @Test
    void anotherNodeSeesTheSwitchAtItsNextRefreshAndNotBefore() {
        RolloutModes cached = node(Duration.ofHours(1));
        RolloutModes refreshing = node(Duration.ZERO);
        cached.settingFor("debit:v1");

        node(Duration.ZERO).change("debit:v1", RolloutMode.REQUIRED, "operator");

        assertEquals(RolloutMode.OPTIONAL, cached.settingFor("debit:v1").mode(), "read within rollout-refresh");
        assertEquals(RolloutMode.REQUIRED, refreshing.settingFor("debit:v1").mode());
    }

    @Test
    void whenTheTableCannotBeReadTheLastModesReadStayInForce() throws Exception {
        RolloutModes node = node(Duration.ZERO);
        node.change("debit:v1", RolloutMode.REQUIRED, "operator");
        assertEquals(RolloutMode.REQUIRED, node.settingFor("debit:v1").mode());

        database.execute("ALTER TABLE idempotency_rollout RENAME TO idempotency_rollout_away");

        assertEquals(RolloutMode.REQUIRED, node.settingFor("debit:v1").mode(), "never silently weakened");
    }
}
