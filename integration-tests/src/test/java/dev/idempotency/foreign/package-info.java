/**
 * Small applications written as if by other teams, which know nothing about the idempotency filter: the
 * container tests adopt the filter in them by adding only its jar and a settings file, and check that
 * everything the filter does not cover behaves exactly as before. Besides the inventory and the ledger, each
 * subpackage imitates a shape found in legacy code: a resource at the context root ({@code root}), a front
 * controller ({@code shop}), servlets that manage their own transactions ({@code selfcommit}), and an
 * application-defined in-memory database ({@code ownh2}), Open Liberty's JPA guide ({@code events}), and one JDBC
 * servlet on the fewest features ({@code guestbook}). Nothing here may import {@code dev.idempotency}
 * classes outside this package.
 */
package dev.idempotency.foreign;
