package dev.idempotency.sample.support;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Leaves a run's tests out, loudly, where its server needs a newer Java than the machine has (GlassFish 8 needs Java
 * 21, which the build does not fetch): they count as skipped, never as passed. Registered for that run only, by JUnit's
 * extension autodetection (integration-tests/pom.xml, the glassfish8 run).
 */
public class JavaForServerCondition implements ExecutionCondition {
    private static boolean said;

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        int minimum = TestServer.minimumJava();
        if (minimum == 0 || ModernJdk.atLeast(minimum).isPresent()) {
            return ConditionEvaluationResult.enabled("the machine has a Java the server runs on");
        }
        String reason = "NOT RUN: no Java " + minimum + " on this machine (" + System.getProperty("arquillian.launch")
                + " needs it; the tests' own JDK and /usr/lib/jvm have none)";
        synchronized (JavaForServerCondition.class) {
            if (!said) {
                System.out.println(reason);
                said = true;
            }
        }
        return ConditionEvaluationResult.disabled(reason);
    }
}
