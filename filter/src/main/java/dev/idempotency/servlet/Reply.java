package dev.idempotency.servlet;

import dev.idempotency.metrics.Outcome;
import dev.idempotency.store.StoredRecord;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How the filter answers one covered request, decided while the transaction is still open and written only
 * after it has ended: the one response the filter writes, and the one outcome the request is counted as.
 */
sealed interface Reply {
    Outcome outcome();

    /** @param instance the request's URI, named by problems */
    void sendTo(HttpServletResponse response, String instance) throws IOException;

    /**
     * The stored response of an earlier request with the same key and the same request; nothing ran.
     *
     * @param hints the retry hints a stored 4xx gets
     */
    record Replay(StoredRecord record, AnswerHints hints) implements Reply {
        @Override
        public Outcome outcome() {
            return Outcome.REPLAYED;
        }

        @Override
        public void sendTo(HttpServletResponse response, String instance) throws IOException {
            Map<String, List<String>> headers =
                    new LinkedHashMap<>(record.response().headers());
            headers.putAll(hints.replayHeaders(record.response().status()));
            headers.put(WireNames.REPLAYED_HEADER, Collections.singletonList("true"));
            headers.put(WireNames.EXPIRES_HEADER, Collections.singletonList(HttpDates.format(record.expiresAt())));
            ResponseWriter.send(
                    response,
                    record.response().status(),
                    headers,
                    record.response().body(),
                    record.response().writerCharset());
        }
    }

    /**
     * What the application wrote, sent as it meant it: stored and committed ({@code EXECUTED}, with the
     * record's expiry), or undone ({@code ROLLED_BACK}).
     */
    record Captured(Outcome outcome, CapturedResponse captured, Optional<Instant> expiresAt) implements Reply {
        @Override
        public void sendTo(HttpServletResponse response, String instance) throws IOException {
            // Until when a retry with this key gets this response back (the record's expires_at, give or
            // take the clock difference between this server and the database).
            expiresAt.ifPresent(expiry -> response.setHeader(WireNames.EXPIRES_HEADER, HttpDates.format(expiry)));
            captured.sendTo(response);
        }
    }

    /**
     * The filter refused the request, or could not finish it: an RFC 9457 problem.
     *
     * @param hints the retry hints and Stripe's member, as the settings ask
     * @param delay the {@code Retry-After} of a 409 or 503
     */
    record Refusal(ProblemException problem, AnswerHints hints, Optional<RetryDelay> delay) implements Reply {
        @Override
        public Outcome outcome() {
            return problem.problem().outcome();
        }

        @Override
        public void sendTo(HttpServletResponse response, String instance) throws IOException {
            ProblemResponse.send(
                    response, problem.problem(), problem.detail(), instance, problem.extensions(), hints, delay);
        }
    }

    /** The application answered the client itself, unprotected (a keyless request, or a new key in DRAIN). */
    record PassedThrough(Outcome outcome) implements Reply {
        @Override
        public void sendTo(HttpServletResponse response, String instance) {
            // Already written by the application.
        }
    }
}
