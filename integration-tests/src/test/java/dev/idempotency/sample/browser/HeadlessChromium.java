package dev.idempotency.sample.browser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.PageLoadStrategy;
import org.openqa.selenium.UnexpectedAlertBehaviour;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium driven through Debian's chromedriver (packages {@code chromium} and {@code
 * chromium-driver}; {@code .ci/run} installs them, as root). Both executables are named, so Selenium never
 * downloads a browser or a driver. On a machine without them, the test class says so in one line of the build's
 * log and is aborted before any test: none of its tests is run or counted (Failsafe reports {@code Tests run: 0}),
 * never as passed. Elsewhere, {@code -Dbrowser.chromium=} and {@code -Dbrowser.chromedriver=} name other
 * executables.
 */
public final class HeadlessChromium implements BeforeAllCallback {
    static final Path BROWSER = Path.of(System.getProperty("browser.chromium", "/usr/bin/chromium"));
    static final Path DRIVER = Path.of(System.getProperty("browser.chromedriver", "/usr/bin/chromedriver"));

    @Override
    public void beforeAll(ExtensionContext context) {
        Optional<String> missing = missing();
        if (missing.isPresent()) {
            String line =
                    "BROWSER SUITE NOT RUN: " + context.getDisplayName() + " needs headless Chromium: " + missing.get();
            System.out.println(line);
            Assumptions.abort(line);
        }
    }

    static Optional<String> missing() {
        List<String> absent = new ArrayList<>();
        for (Path needed : List.of(BROWSER, DRIVER)) {
            if (!Files.isExecutable(needed)) {
                absent.add(needed.toString());
            }
        }
        return absent.isEmpty()
                ? Optional.empty()
                : Optional.of("missing " + String.join(", ", absent) + "; install the Debian packages chromium"
                        + " chromium-driver (.ci/run does, as root)");
    }

    /** A new headless browser with a window tall enough for one operation's section. */
    static ChromeDriver start() {
        return start(new ChromeOptions());
    }

    /**
     * A browser whose commands never wait for a page to load, and that says yes to every dialog, as Chromium's
     * question before it posts a form again on a reload: for tests that follow a form through clicks, reloads and
     * history.
     */
    static ChromeDriver startImpatient() {
        ChromeOptions options = new ChromeOptions();
        options.setPageLoadStrategy(PageLoadStrategy.NONE);
        options.setUnhandledPromptBehaviour(UnexpectedAlertBehaviour.ACCEPT);
        return start(options);
    }

    private static ChromeDriver start(ChromeOptions options) {
        options.setBinary(BROWSER.toFile());
        // --no-sandbox: Chromium refuses to run as root with its sandbox, and CI runs as root.
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1100,1400");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
    }
}
