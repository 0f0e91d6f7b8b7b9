package dev.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A reader follows the docs by their links, so every relative link in README.md, CONTRIBUTING.md and docs/ must
 * reach a file that exists and, when it names an {@code #anchor}, a heading or an explicit anchor in that file,
 * with the anchors GitHub makes from headings.
 */
class DocumentationLinksTest {
    private static final Path ROOT = Path.of("..");

    /**
     * {@code [text](target)} and {@code ![alt](target)}, read from a whole paragraph as Markdown reads them: the text
     * may wrap onto the next line, and so may the space before the target and an optional title after it.
     */
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*]\\(\\s*([^)\\s]+)(?:\\s+\"[^\"]*\")?\\s*\\)");
    /** A target broken over two lines, which Markdown does not read as a link at all: the reader sees the text. */
    private static final Pattern SPLIT_TARGET = Pattern.compile("]\\(([^)\\s]+)\\n\\s*([^)\\s]+)\\)");
    /** How {@link #links} marks a target broken over two lines, for {@link #check} to report. */
    private static final String SPLIT = "split over two lines: ";

    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`]*`");

    private final Map<Path, Set<String>> anchorsByFile = new HashMap<>();

    @Test
    void everyRelativeLinkAndAnchorInTheDocsLeadsSomewhere() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path document : documents()) {
            for (String target : links(Files.readAllLines(document))) {
                check(document, target).ifPresent(broken::add);
            }
        }
        assertEquals(List.of(), broken, "broken links");
    }

    @Test
    void readsLinksWhoseTextOrTargetWrapsOntoTheNextLine() {
        List<String> lines = List.of(
                "See the [failure", "model](failure-model.md#external-effects) and [the", "tour](", "  tour.md).");

        assertEquals(List.of("failure-model.md#external-effects", "tour.md"), links(lines));
    }

    @Test
    void reportsATargetBrokenOverTwoLines() {
        List<String> lines = List.of("See [the failure model](failure-model.md#external-", "effects).");

        assertEquals(List.of(SPLIT + "failure-model.md#external-effects"), links(lines));
    }

    @Test
    void aCodeBlockIsNoParagraph() {
        List<String> lines = List.of("```", "[not](a-link.md)", "```", "[a](link.md)");

        assertEquals(List.of("link.md"), links(lines));
    }

    /** GitHub's heading anchors: lower case, punctuation dropped, spaces made hyphens, repeats numbered. */
    @Test
    void anchorsAreMadeAsGitHubMakesThem() {
        assertEquals("check-your-database", slug("Check your database"));
        assertEquals("403-replay-forbidden", slug("403 `replay-forbidden`"));
        assertEquals("adding-a-database-engine", slug("Adding a database engine"));
        assertEquals("rollout-modes-off--optional", slug("Rollout modes (OFF / OPTIONAL)"));
        assertEquals("the-road-to-10⁹-records", slug("The road to 10⁹ records"));
    }

    private static List<Path> documents() throws IOException {
        List<Path> documents = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CONTRIBUTING.md")));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(documents::add);
        }
        return documents;
    }

    /**
     * The link targets of a document, paragraph by paragraph, outside code blocks and inline code, where a link is only
     * text. A target broken over two lines comes back whole, marked, so that it is reported.
     */
    static List<String> links(List<String> lines) {
        List<String> targets = new ArrayList<>();
        for (String paragraph : paragraphs(lines)) {
            String text = INLINE_CODE.matcher(paragraph).replaceAll("");
            Matcher link = LINK.matcher(text);
            while (link.find()) {
                targets.add(link.group(1));
            }
            Matcher split = SPLIT_TARGET.matcher(text);
            while (split.find()) {
                targets.add(SPLIT + split.group(1) + split.group(2));
            }
        }
        return targets;
    }

    /** The document's paragraphs (and table rows and list items with them), each joined by its line breaks. */
    private static List<String> paragraphs(List<String> lines) {
        List<String> paragraphs = new ArrayList<>();
        StringBuilder paragraph = new StringBuilder();
        boolean inFence = false;
        for (String line : lines) {
            boolean fence = FENCE.matcher(line).find();
            if (fence || inFence || line.trim().isEmpty()) {
                if (paragraph.length() > 0) {
                    paragraphs.add(paragraph.toString());
                    paragraph.setLength(0);
                }
                inFence ^= fence;
                continue;
            }
            paragraph.append(paragraph.length() > 0 ? "\n" : "").append(line);
        }
        if (paragraph.length() > 0) {
            paragraphs.add(paragraph.toString());
        }
        return paragraphs;
    }

    private java.util.Optional<String> check(Path document, String target) {
        if (target.startsWith(SPLIT)) {
            return java.util.Optional.of(ROOT.relativize(document) + " → " + target);
        }
        if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
            return java.util.Optional.empty(); // https:, mailto: … : not this test's to reach
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path linked =
                file.isEmpty() ? document : document.getParent().resolve(file).normalize();
        String where = ROOT.relativize(document) + " → " + target;
        if (!Files.exists(linked)) {
            return java.util.Optional.of(where + ": no such file");
        }
        if (hash < 0 || !linked.toString().endsWith(".md")) {
            return java.util.Optional.empty();
        }
        String anchor = target.substring(hash + 1);
        return anchors(linked).contains(anchor)
                ? java.util.Optional.empty()
                : java.util.Optional.of(where + ": no such anchor");
    }

    private Set<String> anchors(Path document) {
        return anchorsByFile.computeIfAbsent(document.toAbsolutePath().normalize(), path -> {
            try {
                return anchorsOf(Files.readAllLines(path));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static Set<String> anchorsOf(List<String> lines) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean inFence = false;
        for (String line : lines) {
            if (FENCE.matcher(line).find()) {
                inFence = !inFence;
                continue;
            }
            if (inFence) {
                continue;
            }
            Matcher html = HTML_ANCHOR.matcher(line);
            while (html.find()) {
                anchors.add(html.group(1));
            }
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String slug = slug(heading.group(1));
                int repeats = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(repeats == 0 ? slug : slug + "-" + repeats);
            }
        }
        return anchors;
    }

    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)]\\([^)]*\\)", "$1"); // a linked heading keeps its text
        return text.toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N}\\p{M} _-]", "")
                .replace(' ', '-');
    }
}
