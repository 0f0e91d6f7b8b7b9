package dev.idempotency.admin;

import dev.idempotency.ConfigurationException;
import dev.idempotency.config.Operation;
import dev.idempotency.rollout.RolloutMode;
import dev.idempotency.runtime.FilterRuntime;
import dev.idempotency.servlet.Problem;
import dev.idempotency.servlet.ProblemException;
import java.security.Principal;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * An operator's switch of one operation's rollout mode, for every node, recorded under the operator's principal:
 * from the JSON API ({@code PUT}) and from the readiness page's buttons ({@code POST}) alike.
 *
 * <p>Thread-safe: it holds only the runtime.
 */
public final class ModeSwitch {
    private static final Logger LOG = Logger.getLogger(ModeSwitch.class.getName());

    /** Where a switch comes from, which decides what a refusal tells the operator to send. */
    public enum Channel {
        API("PUT with ?operation=", "send a JSON object such as {\"mode\": \"REQUIRED\"}"),
        PAGE("post the readiness page's form with operation=", "post the readiness page's form with mode=");

        private final String operationHint;
        private final String modeHint;

        Channel(String operationHint, String modeHint) {
            this.operationHint = operationHint;
            this.modeHint = modeHint;
        }
    }

    private final FilterRuntime runtime;

    public ModeSwitch(FilterRuntime runtime) {
        this.runtime = runtime;
    }

    /**
     * @param contract the operation's name, such as {@code debit:v1}
     * @param mode the mode's name as sent, or {@code null} if none was
     * @return the operation switched
     * @throws ProblemException {@code operation-unknown}, {@code rollout-mode-invalid}, or {@code store-unavailable}
     *     when the rollout table could not be written (then nothing changed)
     */
    public Operation apply(String contract, String mode, Principal operator, Channel channel) throws ProblemException {
        Operation operation = runtime.config().operations().stream()
                .filter(candidate -> candidate.contract().equals(contract))
                .findFirst()
                .orElseThrow(() -> new ProblemException(
                        Problem.OPERATION_UNKNOWN,
                        "no covered operation is named '" + contract + "'; " + channel.operationHint + " one of "
                                + contracts()));
        RolloutMode target;
        try {
            target = RolloutMode.parse("mode", mode == null ? "" : mode);
        } catch (ConfigurationException e) {
            throw new ProblemException(
                    Problem.ROLLOUT_MODE_INVALID,
                    channel.modeHint + "; the mode is one of " + Arrays.toString(RolloutMode.values()));
        }
        String operatorName = operator == null ? "anonymous" : operator.getName();
        try {
            runtime.rolloutModes().change(contract, target, operatorName);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "switching " + contract + " to " + target + " failed", e);
            throw new ProblemException(
                    Problem.STORE_UNAVAILABLE, "the rollout table could not be written, so nothing changed; try again");
        }
        return operation;
    }

    private List<String> contracts() {
        return runtime.config().operations().stream().map(Operation::contract).collect(Collectors.toList());
    }
}
