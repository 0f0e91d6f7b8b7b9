package dev.idempotency.rollout;

import java.util.Locale;

/**
 * The first product token of a {@code User-Agent} header, lower-cased: {@code curl/8.5.0} is {@code
 * curl}, {@code okhttp/4.12} is {@code okhttp}. Coarse on purpose: enough to tell which client software
 * still sends keyless requests, without storing anything that identifies a person.
 */
public final class UserAgentFamily {
    private static final int MAX_LENGTH = 40;

    private UserAgentFamily() {}

    public static String of(String userAgent) {
        if (userAgent == null || userAgent.trim().isEmpty()) {
            return "unknown";
        }
        StringBuilder family = new StringBuilder();
        for (char c : userAgent.trim().toCharArray()) {
            boolean tokenChar = Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.';
            if (!tokenChar || c > 0x7E || family.length() == MAX_LENGTH) {
                break;
            }
            family.append(c);
        }
        return family.length() == 0 ? "unknown" : family.toString().toLowerCase(Locale.ROOT);
    }
}
