package dev.idempotency.servlet;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ends a request with a problem response before anything was executed or stored. Thrown by the steps
 * that check a request, and turned into the response by the filter.
 */
public final class ProblemException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient Problem problem;
    private final transient Map<String, List<String>> extensions;

    public ProblemException(Problem problem, String detail) {
        this(problem, detail, Collections.emptyMap());
    }

    /** @param extensions RFC 9457 extension members, each a list of strings, such as {@code mismatches} */
    public ProblemException(Problem problem, String detail, Map<String, List<String>> extensions) {
        this(problem, detail, extensions, null);
    }

    /** @param cause what made the request fail, for the log and for reading the database's reason in it */
    public ProblemException(Problem problem, String detail, Throwable cause) {
        this(problem, detail, Collections.emptyMap(), cause);
    }

    private ProblemException(Problem problem, String detail, Map<String, List<String>> extensions, Throwable cause) {
        super(detail, cause, false, false);
        this.problem = problem;
        this.extensions = Collections.unmodifiableMap(new LinkedHashMap<>(extensions));
    }

    public Problem problem() {
        return problem;
    }

    public String detail() {
        return getMessage();
    }

    public Map<String, List<String>> extensions() {
        return extensions;
    }
}
