package dev.idempotency.config;

import dev.idempotency.ConfigurationException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * One option of an entry in the {@code operations} setting, declared once in {@link OperationOptions}: how it is
 * written ({@code concurrent=reject}, or a bare word such as {@code encrypted}), the format, default and meaning
 * an operator reads in the options table of {@code docs/configuration.md} (a test holds the two to the same
 * words), an example for the malformed-entry message, how its text becomes a value (with its bounds), and how the
 * value shows in {@link Operation#toString()} and so in the start-up line. The parser, that message, {@code
 * toString} and the table all read the declaration, as they do for a {@link Setting}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <T> the type of the option's value
 */
public final class OperationOption<T> {
    /** Turns the text after an option's {@code =} into its value. */
    @FunctionalInterface
    interface Parser<T> {
        /**
         * @param option the option's name, such as {@code concurrent}, for messages
         * @param contract the operation's contract, for messages
         * @throws ConfigurationException naming the option, the contract, what is allowed and the bad value
         */
        T parse(String option, String contract, String text);
    }

    private final String name;
    private final boolean flag;
    private final String format;
    private final String defaultText;
    private final T defaultValue;
    private final String example;
    private final String meaning;
    private final Parser<T> parser;
    private final Function<T, String> display;

    private OperationOption(
            String name,
            boolean flag,
            String format,
            String defaultText,
            T defaultValue,
            String example,
            String meaning,
            Parser<T> parser,
            Function<T, String> display) {
        this.name = name;
        this.flag = flag;
        this.format = format;
        this.defaultText = defaultText;
        this.defaultValue = defaultValue;
        this.example = example;
        this.meaning = meaning;
        this.parser = parser;
        this.display = display;
    }

    /**
     * An option written {@code name=value}.
     *
     * @param defaultValue the value when the option is not given; {@code null} when {@code defaultText} names
     *     where the value then comes from
     * @param example a value for the malformed-entry message, such as {@code P7D}
     */
    static <T> OperationOption<T> valued(
            String name,
            String format,
            String defaultText,
            T defaultValue,
            String example,
            String meaning,
            Parser<T> parser,
            Function<T, String> display) {
        return new OperationOption<>(name, false, format, defaultText, defaultValue, example, meaning, parser, display);
    }

    /** An option written as its bare name, such as {@code encrypted}: true when present. */
    static OperationOption<Boolean> flag(String name, String meaning) {
        return new OperationOption<>(
                name,
                true,
                "the word alone",
                "absent",
                false,
                null,
                meaning,
                (option, contract, text) -> true,
                value -> "");
    }

    /**
     * An option that picks one constant of {@code choices}, written in lower case; the message for any other
     * value lists them.
     */
    static <E extends Enum<E>> OperationOption<E> choice(
            String name, Class<E> choices, E defaultValue, String meaning) {
        E[] constants = choices.getEnumConstants();
        String inWords =
                inWords(Arrays.stream(constants).map(OperationOption::written).toArray(String[]::new), "");
        E example = Arrays.stream(constants)
                .filter(constant -> constant != defaultValue)
                .findFirst()
                .orElse(defaultValue);
        return valued(
                name,
                inWords(Arrays.stream(constants).map(OperationOption::written).toArray(String[]::new), "`"),
                "`" + written(defaultValue) + "`",
                defaultValue,
                written(example),
                meaning,
                (option, contract, text) -> {
                    for (E constant : constants) {
                        if (constant.name().equalsIgnoreCase(text)) {
                            return constant;
                        }
                    }
                    throw refusal(option, contract, inWords, text);
                },
                OperationOption::written);
    }

    /** The usual refusal: {@code operations: concurrent of pay:v1 must be wait or reject, was 'fail'}. */
    static ConfigurationException refusal(String option, String contract, String allowed, String text) {
        return new ConfigurationException(
                "operations: " + option + " of " + contract + " must be " + allowed + ", was '" + text + "'");
    }

    private static String written(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT);
    }

    /** {@code a, b or c}, each between {@code quote}s. */
    private static String inWords(String[] values, String quote) {
        StringBuilder words = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            words.append(i == 0 ? "" : i == values.length - 1 ? " or " : ", ");
            words.append(quote).append(values[i]).append(quote);
        }
        return words.toString();
    }

    /** The option's name, such as {@code concurrent}. */
    public String name() {
        return name;
    }

    /** The option as an entry writes it: {@code concurrent=}, or {@code encrypted} for a flag. */
    public String written() {
        return flag ? name : name + "=";
    }

    /** The format column of the options table in {@code docs/configuration.md}. */
    public String format() {
        return format;
    }

    /** The default column of the options table. */
    public String defaultText() {
        return defaultText;
    }

    /** The last column of the options table: what the option does. */
    public String meaning() {
        return meaning;
    }

    /** The option with an example value, as the malformed-entry message shows it: {@code retention=P7D}. */
    String withExample() {
        return flag ? name : name + "=" + example;
    }

    /** The value when the option is not given, or {@code null} if it then comes from elsewhere. */
    T defaultValue() {
        return defaultValue;
    }

    /**
     * Whether {@code word} (one whitespace-free word after the contract) gives this option: {@code encrypted} for
     * a flag, {@code concurrent=...} otherwise.
     */
    boolean writtenIn(String word) {
        return flag ? word.equals(name) : word.startsWith(name + "=");
    }

    /** The value {@code word} gives this option, for the operation with this contract. */
    T parse(String contract, String word) {
        return parser.parse(name, contract, flag ? "" : word.substring(name.length() + 1));
    }

    /**
     * A value as a message names it: as an entry writes it, {@code none} for no value, and {@code present} or
     * {@code absent} for a flag.
     */
    String shown(T value) {
        if (flag) {
            return Boolean.TRUE.equals(value) ? "present" : "absent";
        }
        String text = value == null ? "" : display.apply(value);
        return text.isEmpty() ? "none" : text;
    }

    /** The option as {@link Operation#toString()} writes it, or nothing when it has its default. */
    String display(T value) {
        if (Objects.equals(value, defaultValue)) {
            return "";
        }
        return " " + written() + display.apply(value);
    }

    @Override
    public String toString() {
        return written();
    }
}
