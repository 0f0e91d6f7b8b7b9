package dev.idempotency.sample.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.KeylessHistoryReport;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.SampleDeployment;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The readiness page in a real browser, against WildFly: the operator opens it, reads the verdict and the
 * clients, switches a mode with its button (recorded under the operator's name), and the page's picture is saved
 * for the migration guide. A switch without the session's CSRF token, and a user without the admin role, are
 * refused.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(HeadlessChromium.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ReadinessPageIT {
    private static final String ADMIN = "admin/idempotency";
    private static final Path SCREENSHOT = Path.of("..", "docs", "images", "readiness-page.png");

    @Deployment(testable = false)
    static WebArchive deployment() {
        return SampleDeployment.create();
    }

    @ArquillianResource
    URL base;

    private Api api;
    private ChromeDriver browser;

    @BeforeEach
    void optionalAndABrowser() {
        api = new Api(base);
        switchDebitsTo("OPTIONAL");
        browser = HeadlessChromium.start();
    }

    @AfterEach
    void closeTheBrowserAndDebitsBackToOptional() {
        if (browser != null) {
            browser.quit();
        }
        switchDebitsTo("OPTIONAL");
    }

    @Test
    void theOperatorReadsTheVerdictAndTheClientsThenSwitchesWithTheButton() throws Exception {
        String family = "sdk-" + UUID.randomUUID().toString().substring(0, 8);
        long account = api.openAccount("alice", 10_000);
        for (String retryCount : List.of("0", "1")) {
            HttpResponse<String> debit = Api.send(api.request("alice", "api/accounts/" + account + "/debits")
                    .header("Content-Type", "application/json")
                    .header("User-Agent", family + "/2.1")
                    .header("X-Stainless-Retry-Count", retryCount)
                    .POST(HttpRequest.BodyPublishers.ofString("{\"amount\": 5}"))
                    .build());
            assertEquals(200, debit.statusCode(), debit.body());
        }
        KeylessHistoryReport.awaitClient(api, "debit:v1", "alice", family, 2, 1);

        signIn("operator");
        browser.get(base + ADMIN);
        WebElement debits = debitSection();
        assertEquals("OPTIONAL", debits.findElement(By.cssSelector(".mode")).getText());
        String verdict = debits.findElement(By.cssSelector(".verdict")).getText();
        assertTrue(verdict.startsWith("Not ready:"), verdict);
        assertTrue(verdict.contains("alice/" + family + " (last seen "), verdict);
        WebElement row = clientRow(debits, family);
        List<String> cells = row.findElements(By.tagName("td")).stream()
                .map(WebElement::getText)
                .toList();
        assertEquals(List.of("alice", family), cells.subList(0, 2));
        assertEquals(List.of("2", "1", "1", "yes"), cells.subList(4, 8));
        // The page's one style sheet is allowed by its hash: the browser applied it under the strict policy.
        assertEquals(
                "rgba(176, 58, 46, 1)",
                debits.findElement(By.cssSelector(".verdict")).getCssValue("color"));
        assertFalse(browser.getPageSource().contains("<script"));

        debits.findElement(By.cssSelector("button[value='REQUIRED']")).click();

        debits = debitSection(); // the answer is a redirect back to the page
        assertEquals("REQUIRED", debits.findElement(By.cssSelector(".mode")).getText());
        assertEquals(
                "operator", debits.findElement(By.cssSelector(".changed-by")).getText());
        JsonNode json = KeylessHistoryReport.operation(api, "debit:v1");
        assertEquals("REQUIRED", json.get("mode").asText());
        assertEquals("operator", json.get("changedBy").asText());
        Files.createDirectories(SCREENSHOT.getParent());
        Files.write(SCREENSHOT, debits.getScreenshotAs(OutputType.BYTES));
    }

    @Test
    void theReadinessPageIsHtmlUnderAStrictContentSecurityPolicy() {
        HttpResponse<String> page = Api.send(api.request("operator", ADMIN)
                .header("Accept", "text/html")
                .GET()
                .build());

        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("Content-Type").orElseThrow().startsWith("text/html"));
        String policy = page.headers().firstValue("Content-Security-Policy").orElseThrow();
        assertTrue(policy.startsWith("default-src 'none'; style-src 'sha256-"), policy);
        assertTrue(policy.contains("form-action 'self'"), policy);
        assertFalse(policy.contains("unsafe"), policy);
        assertEquals("no-store", page.headers().firstValue("Cache-Control").orElseThrow());
    }

    @Test
    void aSwitchWithoutTheSessionsCsrfTokenIsRefusedAndChangesNothing() {
        for (String form :
                List.of("operation=debit:v1&mode=REQUIRED", "operation=debit:v1&mode=REQUIRED&csrf=guessed")) {
            HttpResponse<String> refused = Api.send(api.request("operator", ADMIN)
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form))
                    .build());

            assertEquals(403, refused.statusCode(), refused.body());
            assertEquals(
                    "application/problem+json",
                    refused.headers().firstValue("Content-Type").orElseThrow());
            assertEquals(
                    "urn:dev.idempotency:problem:csrf-token-invalid",
                    Api.json(refused).get("type").asText());
        }
        assertEquals(
                "OPTIONAL",
                KeylessHistoryReport.operation(api, "debit:v1").get("mode").asText());
    }

    @Test
    void aUserWithoutTheAdminRoleSeesNoPageAndSwitchesNothing() {
        signIn("alice");
        browser.get(base + ADMIN);
        assertTrue(browser.findElements(By.cssSelector("section.operation")).isEmpty(), browser.getPageSource());

        HttpResponse<String> page = Api.send(
                api.request("alice", ADMIN).header("Accept", "text/html").GET().build());
        HttpResponse<String> change = Api.send(api.request("alice", ADMIN)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("operation=debit:v1&mode=REQUIRED"))
                .build());

        assertEquals(403, page.statusCode());
        assertEquals(403, change.statusCode());
        assertEquals(
                "OPTIONAL",
                KeylessHistoryReport.operation(api, "debit:v1").get("mode").asText());
    }

    /** Every request of the browser, the form's post included, carries this user's basic credentials. */
    private void signIn(String user) {
        String credentials = Base64.getEncoder().encodeToString((user + ":" + user).getBytes(StandardCharsets.UTF_8));
        browser.executeCdpCommand("Network.enable", Map.of());
        browser.executeCdpCommand(
                "Network.setExtraHTTPHeaders", Map.of("headers", Map.of("Authorization", "Basic " + credentials)));
    }

    private WebElement debitSection() {
        return browser.findElement(By.cssSelector("section[data-operation='debit:v1']"));
    }

    private static WebElement clientRow(WebElement section, String family) {
        for (WebElement row : section.findElements(By.cssSelector("table.clients tbody tr"))) {
            if (row.findElements(By.tagName("td")).get(1).getText().equals(family)) {
                return row;
            }
        }
        throw new AssertionError("no row of " + family + " in " + section.getText());
    }

    private void switchDebitsTo(String mode) {
        HttpResponse<String> switched =
                api.put("operator", ADMIN + "?operation=debit:v1", "{\"mode\": \"" + mode + "\"}");
        assertEquals(200, switched.statusCode(), switched.body());
    }
}
