package dev.idempotency.servlet;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.idempotency.ConfigurationException;
import dev.idempotency.config.IdempotencyConfig;
import dev.idempotency.config.SettingsParser;
import jakarta.servlet.ServletContext;
import java.lang.reflect.Proxy;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ViewStateKeysTest {
    private static final IdempotencyConfig VIEW_STATE_KEYED = SettingsParser.parse(
            Map.of("operations", "POST /pay.xhtml = pay:v1 key-field=jakarta.faces.ViewState; POST /api/a = a:v1"));

    @Test
    void refusesTheViewStateAsAKeyWhenTheStateIsSavedOnTheClient() {
        ConfigurationException refused = assertThrows(
                ConfigurationException.class, () -> ViewStateKeys.check(savingStateOn("Client"), VIEW_STATE_KEYED));

        assertEquals(
                "key-field: pay:v1 takes its keys from jakarta.faces.ViewState, but jakarta.faces.STATE_SAVING_METHOD is"
                        + " 'client', so two renders of one view can post the same view state and two intents would be"
                        + " one request; keep the state on the server, or render a key field with <idem:keyField/> and"
                        + " set key-field to its name",
                refused.getMessage());
    }

    @Test
    void acceptsTheViewStateSavedOnTheServerAsTheFacesDefault() {
        assertDoesNotThrow(() -> ViewStateKeys.check(savingStateOn(null), VIEW_STATE_KEYED));
        assertDoesNotThrow(() -> ViewStateKeys.check(savingStateOn("server"), VIEW_STATE_KEYED));
    }

    @Test
    void acceptsClientSideStateWhenNoOperationTakesItsKeyFromTheViewState() {
        IdempotencyConfig rendered =
                SettingsParser.parse(Map.of("operations", "POST /pay.xhtml = pay:v1", "key-field", "idempotency-key"));

        assertDoesNotThrow(() -> ViewStateKeys.check(savingStateOn("client"), rendered));
    }

    /** A servlet context whose only context parameter is Faces' state saving method, when given. */
    private static ServletContext savingStateOn(String method) {
        return (ServletContext) Proxy.newProxyInstance(
                ViewStateKeysTest.class.getClassLoader(),
                new Class<?>[] {ServletContext.class},
                (proxy, call, args) ->
                        call.getName().equals("getInitParameter") && "jakarta.faces.STATE_SAVING_METHOD".equals(args[0])
                                ? method
                                : null);
    }
}
