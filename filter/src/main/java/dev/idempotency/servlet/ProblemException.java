package dev.idempotency.servlet;

/**
 * Ends a request with a problem response before anything was executed or stored. Thrown by the steps
 * that check a request, and turned into the response by the filter.
 */
public final class ProblemException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient Problem problem;

    public ProblemException(Problem problem, String detail) {
        super(detail, null, false, false);
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }

    public String detail() {
        return getMessage();
    }
}
