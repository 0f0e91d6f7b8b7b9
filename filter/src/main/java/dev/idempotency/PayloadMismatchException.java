package dev.idempotency;

/**
 * A message arrived under an id that a subscriber already processed, with a different payload. The
 * transport broke the rule that a message id names one immutable payload, so the message is refused, not
 * silently skipped: someone must look at it.
 */
public class PayloadMismatchException extends IdempotencyException {
    private static final long serialVersionUID = 1L;

    public PayloadMismatchException(String message) {
        super(message);
    }
}
