package dev.idempotency.servlet;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** HTTP dates in the IMF-fixdate form RFC 9110 section 5.6.7 asks senders to use. Thread-safe. */
public final class HttpDates {
    // Not RFC_1123_DATE_TIME: it writes one-digit days ("1 Mar"), which IMF-fixdate does not allow.
    private static final DateTimeFormatter IMF_FIXDATE = DateTimeFormatter.ofPattern(
                    "EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

    private HttpDates() {}

    /** Such as {@code Mon, 01 Mar 2027 00:00:00 GMT}. */
    public static String format(Instant instant) {
        return IMF_FIXDATE.format(instant);
    }
}
