package dev.idempotency.openapi;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.media.Schema;

/**
 * New schemas of one type, on every MicroProfile OpenAPI the servers have. OpenAPI 4.0 (OpenAPI 3.1 documents, where
 * a schema's {@code type} is a list) has {@code Schema.addType(SchemaType)} and no {@code type(SchemaType)}; 2.0 and
 * 3.x, on the Jakarta EE 8 servers (WildFly 26 ships 2.0), have only {@code type(SchemaType)}. Neither call is
 * linked by the compiler: the one this server's API has is looked up once, so that the class loads on both.
 *
 * <p>Stateless and thread-safe.
 */
final class TypedSchemas {
    /** {@code (Schema, SchemaType) -> Schema}: whichever of the two calls the server's API has. */
    private static final MethodHandle SET_TYPE = setType();

    private TypedSchemas() {}

    /** A new schema of {@code type}, from the server's OpenAPI model. */
    static Schema of(Schema.SchemaType type) {
        Schema schema = OASFactory.createSchema();
        try {
            return (Schema) SET_TYPE.invoke(schema, type);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("the OpenAPI model refused the schema type " + type, e);
        }
    }

    private static MethodHandle setType() {
        MethodType call = MethodType.methodType(Schema.class, Schema.SchemaType.class);
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        try {
            return lookup.findVirtual(Schema.class, "addType", call);
        } catch (NoSuchMethodException e) {
            try {
                return lookup.findVirtual(Schema.class, "type", call);
            } catch (NoSuchMethodException | IllegalAccessException older) {
                throw new IllegalStateException(
                        "this MicroProfile OpenAPI has neither Schema.addType(SchemaType)"
                                + " nor Schema.type(SchemaType)",
                        older);
            }
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("Schema.addType(SchemaType) is not public here", e);
        }
    }
}
