package dev.idempotency.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.util.Map;

/** A debit the idempotency filter does not cover: it ignores keys and executes every request it gets. */
final class UncoveredDebitEndpoint implements HttpHandler {
    private final FakeAccount account;

    UncoveredDebitEndpoint(FakeAccount account) {
        this.account = account;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try {
            String balance = account.debit(exchange.getRequestBody().readAllBytes());
            FakeServer.respond(exchange, 200, "application/json", balance, Map.of());
        } finally {
            exchange.close();
        }
    }
}
