package dev.idempotency.testkit;

/** The debit of 100 the kit's own tests send, as alice, and its check with the balance as the effect. */
final class Debits {
    private Debits() {}

    static RequestTemplate template(FakeServer server) {
        return RequestTemplate.post(server.endpoint())
                .basicAuth("alice", "alice")
                .header("Content-Type", "application/json")
                .body("{\"amount\": 100}");
    }

    static IdempotencyCheck check(FakeServer server, FakeAccount account) {
        return IdempotencyCheck.of(template(server)).withEffect(account::balance, -100);
    }
}
