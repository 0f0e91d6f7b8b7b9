package dev.idempotency.config;

import dev.idempotency.ConfigurationException;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The AES keys that protect the stored requests and responses of encrypted operations, each under an id that
 * is stored with every record it sealed. The first key seals new records; every key opens the records sealed
 * under it, so keys can be rotated without losing replays: put the new key first and keep the old one until
 * its records have expired.
 *
 * <p>Written as {@code encryption-keys = 2026-12=<base64 key>, 2026-06=env:IDEMPOTENCY_KEY_2026_06}: a key is
 * 16, 24 or 32 bytes, given in Base64 or named as an environment variable that holds the Base64.
 *
 * <p>Immutable and thread-safe. {@link #toString()} names the ids only, never a key.
 */
public final class EncryptionKeys {
    /** No keys: no operation may be encrypted. */
    public static final EncryptionKeys NONE = new EncryptionKeys(Collections.emptyMap());

    private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Set<Integer> AES_KEY_BYTES =
            Collections.unmodifiableSet(new HashSet<>(Arrays.asList(16, 24, 32)));

    private final Map<String, SecretKey> keys;

    private EncryptionKeys(Map<String, SecretKey> keys) {
        this.keys = Collections.unmodifiableMap(keys);
    }

    /**
     * @param environment reads an environment variable; {@code null} if it is not set
     * @throws ConfigurationException naming the entry that is malformed, without its key material
     */
    static EncryptionKeys parse(String setting, String value, UnaryOperator<String> environment) {
        Map<String, SecretKey> keys = new LinkedHashMap<>();
        for (String entry : value.split(",")) {
            if (entry.trim().isEmpty()) {
                continue;
            }
            String[] parts = entry.trim().split("=", 2);
            String id = parts[0].trim();
            if (parts.length != 2 || !KEY_ID.matcher(id).matches()) {
                throw new ConfigurationException(setting + ": write each key as '<id>=<base64 key>' or"
                        + " '<id>=env:<VARIABLE>', the id 1 to 64 letters, digits, '.', '_' or '-'; an entry"
                        + " starting '" + (id.length() > 12 ? id.substring(0, 12) + "…" : id) + "' is not");
            }
            if (keys.containsKey(id)) {
                throw new ConfigurationException(setting + ": the key id '" + id + "' is given twice");
            }
            keys.put(id, key(setting, id, parts[1].trim(), environment));
        }
        if (keys.isEmpty()) {
            throw new ConfigurationException(setting + " lists no key; give at least one as '<id>=<base64 key>'");
        }
        return new EncryptionKeys(keys);
    }

    private static SecretKey key(String setting, String id, String value, UnaryOperator<String> environment) {
        byte[] bytes = Setting.base64Secret(setting + ": the key '" + id + "'", value, environment);
        if (!AES_KEY_BYTES.contains(bytes.length)) {
            throw new ConfigurationException(setting + ": the key '" + id + "' has " + bytes.length + " bytes; an AES"
                    + " key has 16, 24 or 32 (generate one with 'openssl rand -base64 32')");
        }
        return new SecretKeySpec(bytes, "AES");
    }

    public boolean isEmpty() {
        return keys.isEmpty();
    }

    /** The id of the key that seals new records. */
    public String currentId() {
        return keys.keySet().iterator().next();
    }

    public Optional<SecretKey> byId(String id) {
        return Optional.ofNullable(keys.get(id));
    }

    @Override
    public String toString() {
        return keys.isEmpty() ? "none" : "ids " + keys.keySet() + " (sealing with " + currentId() + ")";
    }
}
