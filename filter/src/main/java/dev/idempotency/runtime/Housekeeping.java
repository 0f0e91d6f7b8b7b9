package dev.idempotency.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * When the filter's periodic work runs: the purge of expired records, the flush of this node's counters, and the
 * keyless summary. On the container's managed scheduler when there is one. Without one, on requests: the first
 * request that finds a task's interval over runs it before its own transaction begins, so the work is done at
 * most once per interval and only while the application is used. A Jakarta EE application may not start threads
 * of its own, and an idle application has nothing new to purge or count.
 *
 * <p>Thread-safe: on requests, a task whose interval is over is claimed by exactly one request.
 */
final class Housekeeping {
    /** One periodic task and its interval. */
    record Task(Runnable work, Duration interval) {}

    private final List<ScheduledFuture<?>> scheduled = new ArrayList<>();
    private final List<DueOnRequest> onRequests = new ArrayList<>();
    private final Runnable onStop;

    /**
     * @param scheduler the container's scheduler, or empty to run the tasks on requests
     * @param clock nanoseconds, as {@link System#nanoTime()}
     * @param onStop run once more when the application stops, after the tasks are cancelled
     */
    Housekeeping(Optional<ScheduledExecutorService> scheduler, List<Task> tasks, Runnable onStop, LongSupplier clock) {
        this.onStop = onStop;
        for (Task task : tasks) {
            long seconds = task.interval().getSeconds();
            if (scheduler.isPresent()) {
                scheduled.add(scheduler.get().scheduleWithFixedDelay(task.work(), seconds, seconds, TimeUnit.SECONDS));
            } else {
                onRequests.add(new DueOnRequest(task.work(), task.interval().toNanos(), clock));
            }
        }
    }

    /** Called by every covered request before its transaction begins: runs what is due when there is no scheduler. */
    void requestArrived() {
        for (DueOnRequest task : onRequests) {
            task.runIfDue();
        }
    }

    /** Cancels the scheduled tasks, then runs the stop work; the application is going away. */
    void stop() {
        for (ScheduledFuture<?> task : scheduled) {
            task.cancel(false);
        }
        onStop.run();
    }

    /** A task run by the first request after its interval is over. */
    private static final class DueOnRequest {
        private final Runnable work;
        private final long intervalNanos;
        private final LongSupplier clock;
        private final AtomicLong due;

        DueOnRequest(Runnable work, long intervalNanos, LongSupplier clock) {
            this.work = work;
            this.intervalNanos = intervalNanos;
            this.clock = clock;
            this.due = new AtomicLong(clock.getAsLong() + intervalNanos);
        }

        void runIfDue() {
            long next = due.get();
            long now = clock.getAsLong();
            // Only the request that moves the due time on runs the task; the others go on at once.
            if (now - next >= 0 && due.compareAndSet(next, now + intervalNanos)) {
                work.run();
            }
        }
    }
}
