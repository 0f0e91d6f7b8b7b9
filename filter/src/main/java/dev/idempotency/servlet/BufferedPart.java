package dev.idempotency.servlet;

import dev.idempotency.canonical.MultipartForm;
import jakarta.servlet.http.Part;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * A part of a {@code multipart/form-data} body the filter has buffered, served to the application in place of the
 * container's, which can no longer read the consumed stream. Its bytes are read where they lie in the buffered body.
 *
 * <p>{@link #write} takes an absolute path only: a relative one is relative to the servlet's multipart location,
 * which the filter does not know. {@link #delete} has nothing to delete, since no temporary file is made.
 *
 * <p>Not thread-safe, like the request it belongs to.
 */
final class BufferedPart implements Part {
    private final MultipartForm.Part part;

    BufferedPart(MultipartForm.Part part) {
        this.part = part;
    }

    @Override
    public InputStream getInputStream() {
        return part.newInputStream();
    }

    @Override
    public String getContentType() {
        return part.contentType();
    }

    @Override
    public String getName() {
        return part.name();
    }

    @Override
    public String getSubmittedFileName() {
        return part.fileName().orElse(null);
    }

    @Override
    public long getSize() {
        return part.size();
    }

    @Override
    public void write(String fileName) throws IOException {
        Path target = Paths.get(fileName);
        if (!target.isAbsolute()) {
            throw new IOException("cannot write the part " + part.name() + " to '" + fileName + "': the idempotency"
                    + " filter holds the request body in memory and knows no multipart location, so give an"
                    + " absolute path");
        }
        try (InputStream in = part.newInputStream()) {
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Override
    public void delete() {
        // The part is held in memory with the rest of the body, never in a temporary file.
    }

    @Override
    public String getHeader(String name) {
        return part.header(name);
    }

    @Override
    public Collection<String> getHeaders(String name) {
        List<String> values = part.headers().get(name);
        return values == null ? Collections.<String>emptyList() : new ArrayList<>(values);
    }

    @Override
    public Collection<String> getHeaderNames() {
        return new ArrayList<>(part.headers().keySet());
    }
}
