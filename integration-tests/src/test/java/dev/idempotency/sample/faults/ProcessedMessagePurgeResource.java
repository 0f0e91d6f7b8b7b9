package dev.idempotency.sample.faults;

import dev.idempotency.consumer.ProcessedMessages;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import java.time.Duration;
import javax.sql.DataSource;

/** Runs one purge batch of processed messages on demand, instead of waiting for the hourly timer. */
@Path("/test/processed-messages/purge")
@RequestScoped
public class ProcessedMessagePurgeResource {
    /** The sample unit's JTA datasource: the record shares the effect's transaction and connection. */
    @Resource(lookup = "java:jboss/datasources/SampleDS")
    DataSource dataSource;

    @POST
    @Transactional
    public String purge(@QueryParam("retention") String retention, @QueryParam("batch") int batch) {
        return Integer.toString(
                ProcessedMessages.in(dataSource).purgeProcessedBefore(Duration.parse(retention), batch));
    }
}
