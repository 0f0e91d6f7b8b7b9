package dev.idempotency.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Sends a {@link RequestTemplate} with {@code java.net.http}, with a key or without, one at a time or many at
 * once, and reads each whole response. Thread-safe.
 */
final class RequestSender {
    /**
     * HTTP/1.1, so that concurrent duplicates arrive on connections of their own, as requests from separate
     * clients do, rather than multiplexed on one HTTP/2 connection.
     */
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    private final Duration timeout;

    RequestSender(Duration timeout) {
        this.timeout = timeout;
    }

    /** Sends {@code request} with {@code key} in {@code keyHeader}, or keyless when {@code key} is null. */
    Reply send(RequestTemplate request, String keyHeader, String key) {
        return await(
                request, CLIENT.sendAsync(build(request, keyHeader, key), HttpResponse.BodyHandlers.ofByteArray()));
    }

    /**
     * Sends {@code copies} identical requests under one key, all issued before any answer is awaited: the
     * client opens a connection for each, so they reach the server together.
     *
     * @return the replies, in the order the requests were issued
     */
    List<Reply> sendAtOnce(RequestTemplate request, String keyHeader, String key, int copies) {
        HttpRequest duplicate = build(request, keyHeader, key);
        List<CompletableFuture<HttpResponse<byte[]>>> inFlight = new ArrayList<>();
        for (int i = 0; i < copies; i++) {
            inFlight.add(CLIENT.sendAsync(duplicate, HttpResponse.BodyHandlers.ofByteArray()));
        }
        List<Reply> replies = new ArrayList<>();
        for (CompletableFuture<HttpResponse<byte[]>> reply : inFlight) {
            replies.add(await(request, reply));
        }
        return replies;
    }

    private HttpRequest build(RequestTemplate request, String keyHeader, String key) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(request.uri())
                .timeout(timeout)
                .method(request.method(), HttpRequest.BodyPublishers.ofByteArray(request.bodyBytes()));
        request.headers().forEach(header -> builder.header(header.name(), header.value()));
        if (key != null) {
            builder.header(keyHeader, key);
        }
        return builder.build();
    }

    private static Reply await(RequestTemplate request, CompletableFuture<HttpResponse<byte[]>> response) {
        try {
            return Reply.of(response.get());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw new UncheckedIOException(request + " got no response: " + io, io);
            }
            throw new IllegalStateException(request + " failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + request, e);
        }
    }
}
