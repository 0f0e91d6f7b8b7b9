package dev.idempotency.sample.tour;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The fenced code blocks of one section of a Markdown page, in order, each with its language ({@code sh},
 * {@code sql}, or empty for an output). Immutable and thread-safe.
 */
record TourPage(List<Block> blocks) {
    /** One fenced block: its language after the opening fence, and its lines. */
    record Block(String language, String text) {}

    /** The blocks between the heading {@code section} and the next heading of the same level. */
    static TourPage read(Path page, String section) throws IOException {
        List<String> lines = Files.readAllLines(page);
        int start = lines.indexOf(section);
        if (start < 0) {
            throw new IllegalStateException(page + " has no heading '" + section + "'");
        }
        String level = section.substring(0, section.indexOf(' ') + 1);
        List<Block> blocks = new ArrayList<>();
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith(level); i++) {
            if (lines.get(i).startsWith("```")) {
                String language = lines.get(i).substring(3).trim();
                StringBuilder text = new StringBuilder();
                for (i++; !lines.get(i).startsWith("```"); i++) {
                    text.append(lines.get(i)).append('\n');
                }
                blocks.add(new Block(language, text.toString().stripTrailing()));
            }
        }
        return new TourPage(List.copyOf(blocks));
    }
}
