package dev.idempotency.sample.engines;

import dev.idempotency.PayloadMismatchException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.StoreException;
import dev.idempotency.consumer.ProcessedMessages;
import dev.idempotency.dialect.SqlStatement;
import dev.idempotency.sample.faults.Gates;
import dev.idempotency.store.ClaimOutcome;
import dev.idempotency.store.RequestResultId;
import dev.idempotency.store.RequestResultStore;
import dev.idempotency.store.StoredRecord;
import dev.idempotency.store.StoredResponse;
import jakarta.annotation.Resource;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.transaction.UserTransaction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.naming.InitialContext;
import javax.sql.DataSource;

/**
 * The store's contract, driven over HTTP from {@link StoreContractIT}: each request runs one store operation in
 * a JTA transaction of WildFly's, on the datasource named by the {@code datasource} parameter, so the engine
 * is real and so are the transaction and the shared connection. Test-only: it exposes internals.
 *
 * <ul>
 *   <li>{@code POST claim?scope&operation&key&request&gate&hold&end&wait}: claims, then (when claimed) holds the
 *       key at the {@link Gates gate} named {@code gate} until the test opens it (when given), then for {@code
 *       hold} ms, and commits a 200 response {@code done:<key>} ({@code end=commit}) or rolls back; answers {@code
 *       claimed}, {@code existing <request> <status> <body>}, {@code in-progress}, or {@code refused: <why>} for a
 *       key the store refuses.
 *   <li>{@code POST purge?batch}: deletes expired records in one transaction, a batch with each of the store's purge
 *       statements; answers the count.
 *   <li>{@code POST message?subscriber&id&payload&gate&hold&end}: the consumer's claim, then (the first time)
 *       holds it at the gate (when given), then for {@code hold} ms, and commits ({@code end=commit}, the default) or rolls back; answers {@code first},
 *       {@code redelivery}, {@code mismatch} or {@code in-progress}.
 *   <li>{@code POST arrived?name}: how many requests have reached the gate; {@code POST open?name} opens it.
 * </ul>
 */
@WebServlet("/contract/*")
public class StoreContractServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Resource
    transient UserTransaction transaction;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        try {
            DataSource dataSource = InitialContext.doLookup(request.getParameter("datasource"));
            String answer =
                    switch (request.getPathInfo()) {
                        case "/claim" -> claim(dataSource, request);
                        case "/purge" -> purge(dataSource, Integer.parseInt(request.getParameter("batch")));
                        case "/message" -> message(dataSource, request);
                        case "/arrived" -> Integer.toString(Gates.arrivedAt(request.getParameter("name")));
                        case "/open" -> {
                            Gates.open(request.getParameter("name"));
                            yield "open";
                        }
                        default -> throw new IllegalArgumentException("no operation " + request.getPathInfo());
                    };
            response.setContentType("text/plain;charset=UTF-8");
            response.getWriter().write(answer);
        } catch (Exception e) {
            response.setStatus(500);
            response.setContentType("text/plain;charset=UTF-8");
            response.getWriter().write(e.toString());
        }
    }

    private String claim(DataSource dataSource, HttpServletRequest request) throws Exception {
        RequestResultStore store =
                new RequestResultStore(dataSource, dev.idempotency.dialect.Engine.detect(dataSource));
        RequestResultId id = new RequestResultId(
                request.getParameter("scope"), request.getParameter("operation"), request.getParameter("key"));
        Duration wait = Duration.ofSeconds(Long.parseLong(request.getParameter("wait")));
        transaction.begin();
        try {
            ClaimOutcome outcome = store.claim(id, request.getParameter("request"), Duration.ofHours(1), wait);
            if (outcome instanceof ClaimOutcome.Existing existing) {
                StoredRecord record = existing.record();
                return "existing " + record.request() + " " + record.response().status() + " "
                        + new String(record.response().body(), StandardCharsets.UTF_8);
            }
            holdTheClaim(request);
            if (!"commit".equals(request.getParameter("end"))) {
                return "claimed";
            }
            store.complete(
                    id,
                    new StoredResponse(
                            200,
                            Map.of("Content-Type", List.of("text/plain")),
                            ("done:" + id.requestKey()).getBytes(StandardCharsets.UTF_8)));
            transaction.commit();
            return "claimed";
        } catch (RequestInProgressException e) {
            return "in-progress";
        } catch (StoreException e) {
            // A key the engine cannot keep apart from another (Derby pads trailing spaces away) is refused, never
            // merged.
            return "refused: " + e.getMessage();
        } finally {
            if (transaction.getStatus() != jakarta.transaction.Status.STATUS_NO_TRANSACTION) {
                transaction.rollback();
            }
        }
    }

    private String purge(DataSource dataSource, int batch) throws Exception {
        transaction.begin();
        try {
            RequestResultStore records =
                    new RequestResultStore(dataSource, dev.idempotency.dialect.Engine.detect(dataSource));
            int deleted = 0;
            for (SqlStatement purge : records.expiredRecordPurges()) {
                deleted += records.purgeExpired(purge, batch);
            }
            transaction.commit();
            return Integer.toString(deleted);
        } finally {
            if (transaction.getStatus() != jakarta.transaction.Status.STATUS_NO_TRANSACTION) {
                transaction.rollback();
            }
        }
    }

    private String message(DataSource dataSource, HttpServletRequest request) throws Exception {
        transaction.begin();
        try {
            boolean first = ProcessedMessages.in(dataSource)
                    .markProcessed(
                            request.getParameter("subscriber"),
                            request.getParameter("id"),
                            "contract",
                            "application/json",
                            request.getParameter("payload").getBytes(StandardCharsets.UTF_8));
            if (first) {
                holdTheClaim(request);
                if ("rollback".equals(request.getParameter("end"))) {
                    return "first";
                }
            }
            transaction.commit();
            return first ? "first" : "redelivery";
        } catch (PayloadMismatchException e) {
            return "mismatch";
        } catch (RequestInProgressException e) {
            return "in-progress";
        } finally {
            if (transaction.getStatus() != jakarta.transaction.Status.STATUS_NO_TRANSACTION) {
                transaction.rollback();
            }
        }
    }

    /**
     * Holds a claim just made: at the gate, so the test sends the duplicate only once the claim is in place, then
     * for {@code hold} ms, long enough for a duplicate to go through an engine's own lock timeout (H2's is two
     * seconds) and the store's retries.
     */
    private static void holdTheClaim(HttpServletRequest request) throws InterruptedException {
        String gate = request.getParameter("gate");
        if (gate != null) {
            Gates.holdAt(gate);
        }
        Thread.sleep(Long.parseLong(Objects.requireNonNullElse(request.getParameter("hold"), "0")));
    }
}
