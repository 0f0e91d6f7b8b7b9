package dev.idempotency.sample.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.SampleDeployment;
import dev.idempotency.sample.support.TestServer;
import java.net.URL;
import java.time.Duration;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;

/**
 * The sample's browser forms in a real browser: a JSP form with {@code <idem:keyField/>}, a Faces form with the
 * Facelets tag, and a Faces form with no edit at all (its view state, saved on the server, is the key). For each,
 * what users do to forms (a double click, a reload of the page a post produced, back and submit again, a new render,
 * an edited resubmit), with the effect counted in the database and the page read as the user sees it.
 */
@Tag("browser-forms")
@ExtendWith(PostgresExtension.class)
@ExtendWith(HeadlessChromium.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class BrowserFormsIT {
    private static final long OPENING_BALANCE = 1_000;

    @Deployment(testable = false)
    static WebArchive deployment() {
        return SampleDeployment.create();
    }

    @ArquillianResource
    URL base;

    /** One browser for the class; each test starts as a new visitor, with no cookie and so no session. */
    private static ChromeDriver browser;

    private Api api;
    private long account;

    @BeforeAll
    static void aBrowser() {
        browser = HeadlessChromium.startImpatient();
        // Every find waits for its element to appear (a state of the page), never for a time.
        browser.manage().timeouts().implicitlyWait(Duration.ofSeconds(30));
    }

    @BeforeEach
    void anAccountAndANewVisitor() {
        api = new Api(base);
        account = api.openAccount("alice", OPENING_BALANCE);
        browser.get(base + "forms/topped-up.jsp");
        browser.findElement(By.id("balance"));
        browser.manage().deleteAllCookies();
    }

    @AfterAll
    static void closeTheBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void aDoubleClickRunsOnceAndBothClicksEndWithTheFirstOutcome() throws Exception {
        String gate = UUID.randomUUID().toString();
        browser.get(base + "forms/gated-top-up.jsp?gate=" + gate);
        fill("50");

        new Actions(browser).doubleClick(browser.findElement(By.id("pay"))).perform();
        // The first click's request holds its claim inside the application until the gate opens. Whether the second
        // click's request arrives before (and waits for it) or after (and finds it done), it gets the same outcome.
        api.awaitAtGate(gate, 1);
        api.openGate(gate);

        assertEquals(String.valueOf(OPENING_BALANCE + 50), shownBalance());
        assertEquals(OPENING_BALANCE + 50, Database.balance(account));
        assertEquals(1, api.gateArrivals(gate), "the second click never reached the application");
    }

    @Test
    void aReloadOfThePageThePostProducedShowsTheFirstOutcomeAgain() {
        topUpWithTheJspForm("70");
        assertEquals(String.valueOf(OPENING_BALANCE + 70), shownBalance());

        // Chromium asks before it posts a form again; this browser says yes.
        browser.navigate().refresh();

        assertEquals(String.valueOf(OPENING_BALANCE + 70), shownBalance());
        assertEquals(OPENING_BALANCE + 70, Database.balance(account));
    }

    @Test
    void backAndSubmitAgainIsTheSameIntentAndANewRenderIsANewOne() {
        topUpWithTheJspForm("30");
        browser.navigate().back();
        browser.findElement(By.id("pay")).click();

        assertEquals(String.valueOf(OPENING_BALANCE + 30), shownBalance());
        assertEquals(OPENING_BALANCE + 30, Database.balance(account));

        topUpWithTheJspForm("30");
        assertEquals(String.valueOf(OPENING_BALANCE + 60), shownBalance());
        assertEquals(OPENING_BALANCE + 60, Database.balance(account));
    }

    @Test
    void anEditedResubmitShowsTheApplicationsErrorPageAndChangesNothing() {
        topUpWithTheJspForm("30");
        browser.navigate().back();
        browser.findElement(By.id("amount")).clear();
        browser.findElement(By.id("amount")).sendKeys("900");
        browser.findElement(By.id("pay")).click();

        assertEquals(
                "This form was already submitted",
                browser.findElement(By.id("refused")).getText());
        assertTrue(browser.findElement(By.id("problem-type")).getText().endsWith("idempotency-key-reused"));
        assertEquals(OPENING_BALANCE + 30, Database.balance(account));
    }

    @Test
    void aFacesFormKeepsItsRedirectAndAnAjaxRenderGivesItANewKey() {
        browser.get(base + "forms/top-up.xhtml");
        String rendered = keyField();
        browser.findElement(By.id("topup:amount")).sendKeys("40");
        browser.findElement(By.id("topup:check")).click();
        awaitText(By.id("topup:message"), "Amount looks fine.");
        String reRendered = keyField();
        assertNotEquals(rendered, reRendered, "the Ajax render of the form carries a new key");

        browser.findElement(By.id("topup:account")).sendKeys(String.valueOf(account));
        browser.findElement(By.id("topup:pay")).click();
        assertEquals(String.valueOf(OPENING_BALANCE + 40), shownBalance());
        browser.navigate().back();
        browser.findElement(By.id("topup:pay")).click();

        // The same redirect again: the first outcome, not a second top-up.
        assertEquals(String.valueOf(OPENING_BALANCE + 40), shownBalance());
        assertEquals(OPENING_BALANCE + 40, Database.balance(account));
    }

    @Test
    void aFacesFormWithNoEditTakesItsKeyFromTheViewStateSavedOnTheServer() {
        Assumptions.assumeTrue(!TestServer.isJakartaEe8(), "EE 8's view state field is javax.faces.ViewState");
        for (int render = 1; render <= 2; render++) {
            browser.get(base + "forms/top-up-viewstate.xhtml");
            browser.findElement(By.id("topup:account")).sendKeys(String.valueOf(account));
            browser.findElement(By.id("topup:amount")).sendKeys("25");
            browser.findElement(By.id("topup:pay")).click();
            assertEquals(String.valueOf(OPENING_BALANCE + 25 * render), shownBalance());
            browser.navigate().back();
            browser.findElement(By.id("topup:pay")).click();
            assertEquals(String.valueOf(OPENING_BALANCE + 25 * render), shownBalance());
        }
        assertEquals(OPENING_BALANCE + 50, Database.balance(account));
    }

    private void topUpWithTheJspForm(String amount) {
        browser.get(base + "forms/top-up.jsp");
        fill(amount);
        browser.findElement(By.id("pay")).click();
        browser.findElement(By.id("balance"));
    }

    private void fill(String amount) {
        browser.findElement(By.id("account")).sendKeys(String.valueOf(account));
        browser.findElement(By.id("amount")).sendKeys(amount);
    }

    /** The balance the result page shows, once the browser is on it. */
    private String shownBalance() {
        return browser.findElement(By.id("balance")).getText();
    }

    private String keyField() {
        return browser.findElement(By.name("idempotency-key")).getAttribute("value");
    }

    /** Waits until the element, as the page now has it, reads the text: an Ajax render replaces the element. */
    private void awaitText(By element, String text) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!text.equals(textOf(element))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(element + " never read '" + text + "'");
            }
            Thread.onSpinWait();
        }
    }

    private String textOf(By element) {
        try {
            return browser.findElement(element).getText();
        } catch (StaleElementReferenceException replacedMeanwhile) {
            return "";
        }
    }
}
