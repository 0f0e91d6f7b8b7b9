package dev.idempotency.sample.view;

import dev.idempotency.IdempotentExecution;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** A bean that lives longer than a request and still reads the key of the request at hand. */
@ApplicationScoped
public class KeyEcho {
    @Inject
    IdempotentExecution execution;

    public String currentKey() {
        return execution.key();
    }
}
