package dev.idempotency.testkit;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The fake endpoints' one account: a balance that each executed debit lowers. Thread-safe. */
final class FakeAccount {
    private static final Pattern AMOUNT = Pattern.compile("\"amount\"\\s*:\\s*(\\d+)");

    private final AtomicLong balance;

    FakeAccount(long balance) {
        this.balance = new AtomicLong(balance);
    }

    long balance() {
        return balance.get();
    }

    /** Debits the body's {@code amount} and returns the response body, {@code {"balance":N}}. */
    String debit(byte[] requestBody) {
        Matcher amount = AMOUNT.matcher(new String(requestBody, StandardCharsets.UTF_8));
        if (!amount.find()) {
            throw new IllegalArgumentException("test setup: no amount in the debit");
        }
        return "{\"balance\":" + balance.addAndGet(-Long.parseLong(amount.group(1))) + "}";
    }
}
