package dev.idempotency.config;

import dev.idempotency.ConfigurationException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * One setting of the filter, declared once in {@link Settings}: its name, the format and default an operator
 * reads in {@code docs/configuration.md} (a test holds the two to the same words), how its text becomes a value
 * (with its bounds), and how the value shows in the effective-configuration line logged at start-up. The
 * parser, the known-settings check, MicroProfile Config ({@code idempotency.<name>}) and that line all read the
 * declaration.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <T> the type of the setting's value
 */
public final class Setting<T> {
    private static final String ENVIRONMENT_PREFIX = "env:";

    /** Turns a setting's trimmed text into its value. */
    @FunctionalInterface
    interface Parser<T> {
        /**
         * @param environment reads an environment variable ({@code null} if unset), for settings that may name one
         * @throws ConfigurationException naming the setting, what is allowed and the bad value
         */
        T parse(String name, String text, UnaryOperator<String> environment);
    }

    private final String name;
    private final String format;
    private final String defaultText;
    private final T defaultValue;
    private final Parser<T> parser;
    private final Function<T, String> display;

    private Setting(
            String name,
            String format,
            String defaultText,
            T defaultValue,
            Parser<T> parser,
            Function<T, String> display) {
        this.name = name;
        this.format = format;
        this.defaultText = defaultText;
        this.defaultValue = defaultValue;
        this.parser = parser;
        this.display = display;
    }

    /** A setting with a default value, shown as the default's text. */
    static <T> Setting<T> of(String name, String format, String defaultText, T defaultValue, Parser<T> parser) {
        return new Setting<>(name, format, defaultText, Objects.requireNonNull(defaultValue), parser, String::valueOf);
    }

    /** A setting that is unset unless given; {@code defaultText} says what happens then. */
    static <T> Setting<T> optional(String name, String format, String defaultText, Parser<T> parser) {
        return new Setting<>(name, format, defaultText, null, parser, String::valueOf);
    }

    /** The same setting, shown in the start-up line by {@code display} (to keep secrets out of the log). */
    Setting<T> shownAs(Function<T, String> display) {
        return new Setting<>(name, format, defaultText, defaultValue, parser, display);
    }

    public String name() {
        return name;
    }

    /** The format column of the settings table in {@code docs/configuration.md}. */
    public String format() {
        return format;
    }

    /** The default column of the settings table in {@code docs/configuration.md}. */
    public String defaultText() {
        return defaultText;
    }

    /** The value when the setting is not given, or {@code null} if it is then unset. */
    T defaultValue() {
        return defaultValue;
    }

    T parse(String text, UnaryOperator<String> environment) {
        return parser.parse(name, text.trim(), environment);
    }

    /** The value as the effective-configuration line shows it; the default's text when unset. */
    String display(T value) {
        return value == null ? defaultText.replace("`", "") : display.apply(value);
    }

    @Override
    public String toString() {
        return name;
    }

    // Parsers shared by several settings; each names the setting and the bad value.

    static Duration duration(String name, String text) {
        try {
            return Duration.parse(text);
        } catch (DateTimeParseException e) {
            throw new ConfigurationException(
                    name + " must be an ISO-8601 duration such as PT24H or PT10S, was '" + text + "'");
        }
    }

    /** A duration of at least {@code min}. */
    static Parser<Duration> atLeast(Duration min) {
        return (name, text, environment) -> {
            Duration value = duration(name, text);
            if (value.compareTo(min) < 0) {
                throw new ConfigurationException(name + " must be ≥ " + min + ", was " + value);
            }
            return value;
        };
    }

    /** JDBC query timeouts and JTA transaction timeouts both count in whole seconds. */
    static Parser<Duration> wholeSeconds() {
        return (name, text, environment) -> {
            Duration value = duration(name, text);
            if (value.compareTo(Duration.ofSeconds(1)) < 0 || value.getNano() != 0) {
                throw new ConfigurationException(
                        name + " must be a whole number of seconds, at least PT1S, was " + value);
            }
            return value;
        };
    }

    /** A number of bytes, at least {@code min}. */
    static Parser<Long> bytes(long min) {
        return (name, text, environment) -> {
            long value;
            try {
                value = Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw new ConfigurationException(
                        name + " must be a number of bytes such as 1048576, was '" + text + "'");
            }
            if (value < min) {
                throw new ConfigurationException(name + " must be ≥ " + min + " bytes, was " + value);
            }
            return value;
        };
    }

    /**
     * One of an enum's constants, written in lower case with hyphens for underscores, such as {@code sdk}; shown the
     * same way.
     */
    static <E extends Enum<E>> Parser<E> choice(Class<E> type) {
        return (name, text, environment) -> {
            for (E constant : type.getEnumConstants()) {
                if (written(constant).equals(text.toLowerCase(Locale.ROOT))) {
                    return constant;
                }
            }
            List<String> allowed =
                    Arrays.stream(type.getEnumConstants()).map(Setting::written).collect(Collectors.toList());
            throw new ConfigurationException(
                    name + " must be one of " + String.join(", ", allowed) + ", was '" + text + "'");
        };
    }

    /** How {@link #choice} writes a constant. */
    static String written(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** A whole number from {@code min} to {@code max}. */
    static Parser<Integer> between(int min, int max) {
        return (name, text, environment) -> {
            long value;
            try {
                value = Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw new ConfigurationException(name + " must be a whole number such as 1000, was '" + text + "'");
            }
            if (value < min || value > max) {
                throw new ConfigurationException(name + " must be between " + min + " and " + max + ", was " + value);
            }
            return (int) value;
        };
    }

    /**
     * The bytes of a secret given in Base64, or named as {@code env:VARIABLE} whose value is the Base64, so that
     * the secret itself need not sit in a settings file. Messages name {@code what}, never the secret.
     *
     * @param what names the secret in messages, such as {@code "scope-header-key"}
     */
    static byte[] base64Secret(String what, String text, UnaryOperator<String> environment) {
        String base64 = text;
        if (text.startsWith(ENVIRONMENT_PREFIX)) {
            String variable = text.substring(ENVIRONMENT_PREFIX.length());
            base64 = environment.apply(variable);
            if (base64 == null) {
                throw new ConfigurationException(
                        what + " names the environment variable " + variable + ", which is not set");
            }
        }
        try {
            return Base64.getDecoder().decode(base64.trim());
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(what + " is not valid Base64");
        }
    }
}
