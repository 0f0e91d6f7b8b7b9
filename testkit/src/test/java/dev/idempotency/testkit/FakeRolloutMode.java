package dev.idempotency.testkit;

/** What the fake covered endpoint does with a keyless request, as the filter's rollout modes do. */
enum FakeRolloutMode {
    OFF,
    OPTIONAL,
    REQUIRED,
    DRAIN
}
