package dev.idempotency.javaxcheck;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Jakarta EE packages under either root, as they appear in class files (internal names, descriptors, string
 * constants) and in text files (service file names, XML). The JDK's own {@code javax} packages are not EE and are
 * never matched: {@code javax.sql}, {@code javax.naming}, {@code javax.crypto}, {@code javax.management}, {@code
 * javax.transaction.xa} (module {@code java.transaction.xa}), {@code javax.annotation.processing}.
 */
enum EeNamespace {
    JAKARTA("jakarta"),
    JAVAX("javax");

    /** The EE specifications a jar of this project could name. */
    private static final String EE_PACKAGES = "(?:servlet|transaction(?![./]xa[./;])|persistence"
            + "|annotation(?![./]processing)|enterprise|inject|ws[./]rs|json|ejb|jms|validation|el|mail|batch"
            + "|websocket|security[./]enterprise|resource|faces|interceptor|decorator)";

    private final Pattern reference;

    EeNamespace(String root) {
        // Not preceded by a name character (so dev/idempotency/namespace/javax/... never matches), but maybe by
        // the L of a descriptor (Ljavax/servlet/Filter;).
        this.reference = Pattern.compile("(?<![A-Za-z0-9_$])L?(" + root + "[./]" + EE_PACKAGES + ")(?=[./;$])");
    }

    /**
     * The EE names of this namespace in an entry of a jar: in its own name (a service file is named after an EE
     * type), and in each text constant of a class file (class names, descriptors, string literals) or in the text
     * of any other file.
     */
    Set<String> namesIn(String entryName, byte[] bytes) {
        List<String> texts = new ArrayList<>(List.of(entryName));
        texts.addAll(
                entryName.endsWith(".class")
                        ? ClassFileTexts.of(bytes)
                        : List.of(new String(bytes, StandardCharsets.ISO_8859_1)));
        Set<String> found = new TreeSet<>();
        for (String text : texts) {
            Matcher matcher = reference.matcher(text);
            while (matcher.find()) {
                int end = matcher.end();
                while (end < text.length() && isNamePart(text.charAt(end))) {
                    end++;
                }
                found.add(text.substring(matcher.start(1), end));
            }
        }
        return found;
    }

    private static boolean isNamePart(char c) {
        return Character.isLetterOrDigit(c) || c == '.' || c == '/' || c == '_' || c == '$';
    }
}
