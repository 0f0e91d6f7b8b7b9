package dev.idempotency.sample.messaging;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;

/**
 * A credit event as a consumer reads it.
 *
 * @param messageId the producer's id of the event
 * @param accountId the account to credit
 * @param amount the amount to credit
 * @param payload the exact payload, for payload identity
 */
public record CreditEvent(String messageId, long accountId, long amount, byte[] payload) {

    /**
     * @throws IllegalStateException if the message cannot be read; the listener's transaction then rolls back
     *     and the broker redelivers, up to its dead-letter limit
     */
    public static CreditEvent of(Message message) {
        try {
            String text = ((TextMessage) message).getText();
            JsonObject json = Json.createReader(new StringReader(text)).readObject();
            return new CreditEvent(
                    message.getStringProperty(CreditQueues.MESSAGE_ID),
                    json.getJsonNumber("accountId").longValueExact(),
                    json.getJsonNumber("amount").longValueExact(),
                    text.getBytes(StandardCharsets.UTF_8));
        } catch (JMSException e) {
            throw new IllegalStateException("unreadable credit event", e);
        }
    }
}
