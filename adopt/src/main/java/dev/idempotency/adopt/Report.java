package dev.idempotency.adopt;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * What a check found, in the order a reader needs it: what the WAR holds, which operations are covered and by
 * what, what will fail, what the command could not verify, and notes that change nothing. Only a failure makes
 * the check fail.
 *
 * <p>Not thread-safe.
 */
final class Report {
    private final String subject;
    private final List<String> found = new ArrayList<>();
    private final List<String> covered = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private final List<String> unverified = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    Report(String subject) {
        this.subject = subject;
    }

    void found(String line) {
        found.add(line);
    }

    void covered(String line) {
        covered.add(line);
    }

    void fails(String line) {
        failures.add(line);
    }

    void unverified(String line) {
        unverified.add(line);
    }

    void note(String line) {
        notes.add(line);
    }

    /** Whether nothing the command can see will fail. */
    boolean willWork() {
        return failures.isEmpty();
    }

    List<String> failures() {
        return List.copyOf(failures);
    }

    List<String> covered() {
        return List.copyOf(covered);
    }

    List<String> unverified() {
        return List.copyOf(unverified);
    }

    List<String> notes() {
        return List.copyOf(notes);
    }

    void print(PrintStream out) {
        out.println(subject);
        section(out, "Found", found);
        section(out, "Covered operations", covered);
        section(out, "Will fail", failures);
        section(out, "Could not verify", unverified);
        section(out, "Notes", notes);
        out.println();
        out.println(
                willWork()
                        ? "Result: nothing the command can see will fail."
                        : "Result: " + failures.size() + " thing(s) will fail; see \"Will fail\".");
    }

    private static void section(PrintStream out, String title, List<String> lines) {
        if (lines.isEmpty()) {
            return;
        }
        out.println();
        out.println(title + ":");
        lines.forEach(line -> out.println("  - " + line));
    }
}
