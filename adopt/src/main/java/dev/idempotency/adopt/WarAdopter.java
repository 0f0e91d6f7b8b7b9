package dev.idempotency.adopt;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Writes the adopted copy of a WAR: every entry of the original, in its order, with its content, timestamps,
 * extra fields and comment unchanged, then the filter jar and the settings file. The original is only read.
 *
 * <p>Stateless and thread-safe.
 */
final class WarAdopter {
    private WarAdopter() {}

    /**
     * Writes beside {@code output} first and moves the result into place, so a failed run never leaves a half
     * WAR where a deployment scanner could pick it up.
     *
     * @return how many entries were copied
     */
    static int write(Path input, Path output, FilterJar filterJar, WarCheck.SettingsFile settings) throws IOException {
        Path absolute = output.toAbsolutePath();
        Path partial = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName(), ".partial");
        int copied = 0;
        try {
            try (ZipFile war = new ZipFile(input.toFile());
                    OutputStream file = Files.newOutputStream(partial);
                    ZipOutputStream out = new ZipOutputStream(file)) {
                if (war.getComment() != null) {
                    out.setComment(war.getComment());
                }
                for (ZipEntry entry : Collections.list(war.entries())) {
                    ZipEntry copy = new ZipEntry(entry);
                    if (copy.getMethod() == ZipEntry.DEFLATED) {
                        // Compressed anew, so its compressed size is known only once written.
                        copy.setCompressedSize(-1);
                    }
                    out.putNextEntry(copy);
                    try (InputStream in = war.getInputStream(entry)) {
                        in.transferTo(out);
                    }
                    out.closeEntry();
                    copied++;
                }
                add(out, filterJar.entryName(), filterJar.bytes());
                add(out, WarCheck.SETTINGS_ENTRY, settings.bytes());
            }
            Files.move(partial, absolute, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(partial);
        }
        return copied;
    }

    private static void add(ZipOutputStream out, String name, byte[] bytes) throws IOException {
        ZipEntry entry = new ZipEntry(name);
        entry.setTime(System.currentTimeMillis());
        out.putNextEntry(entry);
        out.write(bytes);
        out.closeEntry();
    }
}
