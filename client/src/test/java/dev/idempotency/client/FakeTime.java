package dev.idempotency.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** A clock that moves only when the sleeper sleeps, so retry tests never wait for real time. */
final class FakeTime extends Clock {
    private Instant now;
    final List<Duration> sleeps = new ArrayList<>();
    final Sleeper sleeper = delay -> {
        sleeps.add(delay);
        advance(delay);
    };

    FakeTime(Instant start) {
        this.now = start;
    }

    void advance(Duration by) {
        now = now.plus(by);
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("not needed");
    }
}
