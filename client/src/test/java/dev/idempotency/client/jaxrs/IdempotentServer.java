package dev.idempotency.client.jaxrs;

import static dev.idempotency.client.jaxrs.ScriptedServer.answer;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * What the idempotency filter does for the scripted server, reduced to what a caller sees: the first request with
 * a key runs (one effect) and its answer is kept; a later one with that key gets the kept answer with {@code
 * Idempotent-Replayed: true}. Keyless requests run every time.
 */
final class IdempotentServer {
    private final Map<String, String> kept = new HashMap<>();
    private int effects;

    /** Runs or replays, and answers. */
    final Function<ScriptedServer.Request, String> answers = request -> {
        String key = request.header("Idempotency-Key");
        synchronized (this) {
            if (key != null && kept.containsKey(key)) {
                return answer(201, kept.get(key), "Idempotent-Replayed: true");
            }
            effects++;
            String created = "order-" + effects;
            if (key != null) {
                kept.put(key, created);
            }
            return answer(201, created);
        }
    };

    /** Runs or replays, then cuts the connection: the answer is lost after the commit. */
    final Function<ScriptedServer.Request, String> losesTheAnswer = request -> {
        answers.apply(request);
        return ScriptedServer.CUT;
    };

    synchronized int effects() {
        return effects;
    }
}
