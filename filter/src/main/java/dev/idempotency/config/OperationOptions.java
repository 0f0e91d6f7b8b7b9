package dev.idempotency.config;

import dev.idempotency.canonical.IgnoredParts;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Every option an entry of the {@code operations} setting may carry after its contract, each declared once: how
 * it is written, its format, default, meaning, parser and bounds. A new option is one declaration here, one entry
 * in {@link #ALL}, an accessor in {@link Operation} if code reads it, and its row in the options table of {@code
 * docs/configuration.md}, which a test compares with these declarations.
 *
 * <p>Stateless and thread-safe.
 */
public final class OperationOptions {
    private OperationOptions() {}

    private static final Pattern ROLES = Pattern.compile("[^|\\s]+(\\|[^|\\s]+)*");

    public static final OperationOption<Duration> RETENTION = OperationOption.valued(
            "retention",
            "an ISO-8601 duration, at least `PT1M` and at least `transaction-timeout`",
            "the [`retention`](#retention) setting",
            null,
            "P7D",
            "how long this operation's records are kept",
            (option, contract, text) -> {
                try {
                    return Duration.parse(text);
                } catch (DateTimeParseException e) {
                    throw OperationOption.refusal(option, contract, "an ISO-8601 duration such as P7D", text);
                }
            },
            Duration::toString);

    public static final OperationOption<Boolean> ENCRYPTED = OperationOption.flag(
            "encrypted",
            "its stored requests and response bodies are sealed with [`encryption-keys`](#encryption-keys)");

    public static final OperationOption<Set<String>> REPLAY_ROLES = OperationOption.valued(
            "replay-roles",
            "role names separated by `|`",
            "none: no role check",
            Collections.emptySet(),
            "role1|role2",
            "a stored response is replayed only to a caller in one of these roles at the time of the retry;"
                    + " otherwise `403 replay-forbidden` (see"
                    + " [Replay and authorization](failure-model.md#replay-and-authorization))",
            (option, contract, text) -> {
                if (!ROLES.matcher(text).matches()) {
                    throw OperationOption.refusal(
                            option, contract, "role names separated by |, such as clerk|auditor", text);
                }
                return Collections.unmodifiableSet(new HashSet<>(Arrays.asList(text.split("\\|"))));
            },
            roles -> String.join("|", new TreeSet<>(roles)));

    public static final OperationOption<Operation.Concurrency> CONCURRENT = OperationOption.choice(
            "concurrent",
            Operation.Concurrency.class,
            Operation.Concurrency.WAIT,
            "what a duplicate of a request still in flight gets: a wait for its outcome, or `409` at once"
                    + " (see [below](#what-a-duplicate-in-flight-gets-concurrent))");

    public static final OperationOption<List<String>> IGNORE = OperationOption.valued(
            "ignore",
            "JSON pointers such as `/body/json/sentAt` or `/query/nonce`, separated by `|`",
            "none: the whole request is compared",
            Collections.emptyList(),
            "/body/json/member|/query/name",
            "parts of the request left out of the comparison"
                    + " (see [below](#leaving-a-member-out-of-the-comparison-ignore))",
            (option, contract, text) -> IgnoredParts.parse(contract, text),
            pointers -> String.join("|", pointers));

    public static final OperationOption<Operation.AfterExpiry> AFTER_EXPIRY = OperationOption.choice(
            "after-expiry",
            Operation.AfterExpiry.class,
            Operation.AfterExpiry.RUN,
            "what a retry gets after the record's retention: a new execution, or `410` for"
                    + " [`late-retry-window`](#late-retry-window) more (see"
                    + " [below](#a-retry-after-the-retention-after-expiry))");

    public static final OperationOption<String> KEY_FIELD = OperationOption.valued(
            "key-field",
            "a form field name",
            "the [`key-field`](#key-field) setting",
            null,
            "jakarta.faces.ViewState",
            "the form field a browser's key comes in when the request has no key header (see"
                    + " [Browser forms](browser-forms.md))",
            (option, contract, text) -> {
                try {
                    return Settings.formField(option, text, name -> null);
                } catch (dev.idempotency.ConfigurationException e) {
                    throw OperationOption.refusal(option, contract, "a form field name such as _key", text);
                }
            },
            field -> field);

    /** Every option, in the order of the options table, the malformed-entry message and {@code toString}. */
    public static final List<OperationOption<?>> ALL = Collections.unmodifiableList(
            Arrays.asList(RETENTION, ENCRYPTED, REPLAY_ROLES, CONCURRENT, IGNORE, AFTER_EXPIRY, KEY_FIELD));
}
