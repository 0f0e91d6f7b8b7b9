package dev.idempotency.sample.faults;

import dev.idempotency.consumer.ProcessedMessages;
import jakarta.enterprise.context.RequestScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import java.time.Duration;

/** Runs one purge batch of processed messages on demand, instead of waiting for the hourly timer. */
@Path("/test/processed-messages/purge")
@RequestScoped
public class ProcessedMessagePurgeResource {
    @PersistenceContext(unitName = "sample")
    EntityManager entityManager;

    @POST
    @Transactional
    public String purge(@QueryParam("retention") String retention, @QueryParam("batch") int batch) {
        return Integer.toString(
                ProcessedMessages.in(entityManager).purgeProcessedBefore(Duration.parse(retention), batch));
    }
}
