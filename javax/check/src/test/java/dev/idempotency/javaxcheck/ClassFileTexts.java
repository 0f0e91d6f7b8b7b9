package dev.idempotency.javaxcheck;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code CONSTANT_Utf8} entries of a class file's constant pool (JVMS 4.4.7): every class name, descriptor,
 * member name and string literal the class holds, each on its own, so that a pattern never runs across two.
 */
final class ClassFileTexts {
    private static final int UTF8 = 1;

    private ClassFileTexts() {}

    static List<String> of(byte[] classFile) {
        List<String> texts = new ArrayList<>();
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile))) {
            in.skipNBytes(8); // magic, minor and major version
            int count = in.readUnsignedShort();
            for (int index = 1; index < count; index++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case UTF8 -> texts.add(in.readUTF());
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
                    case 5, 6 -> {
                        in.skipNBytes(8);
                        index++; // a long or a double takes two entries
                    }
                    case 7, 8, 16, 19, 20 -> in.skipNBytes(2);
                    case 15 -> in.skipNBytes(3);
                    default -> throw new IllegalArgumentException("constant pool tag " + tag + " at entry " + index);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return texts;
    }
}
