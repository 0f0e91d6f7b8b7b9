package dev.idempotency.dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One statement of the filter's SQL, written with named parameters ({@code WHERE scope = :scope}) and bound by
 * name, so a dialect may write them in any order, use one twice, or leave one out, and no caller depends on an
 * order written only in Javadoc. The text is turned into JDBC's positional form once, when the statement is made.
 *
 * <p>A name is a {@code :} followed by a letter, outside quotes and not after another {@code :} (so PostgreSQL's
 * {@code ::} casts stay as they are).
 *
 * <p>Immutable and thread-safe.
 */
public final class SqlStatement {
    private final String text;
    private final String jdbc;
    private final List<String> parameters;

    private SqlStatement(String text, String jdbc, List<String> parameters) {
        this.text = text;
        this.jdbc = jdbc;
        this.parameters = parameters;
    }

    /** The statement written with {@code :name} parameters. */
    public static SqlStatement of(String text) {
        StringBuilder jdbc = new StringBuilder(text.length());
        List<String> parameters = new ArrayList<>();
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
                jdbc.append(c);
            } else if (c == '\'' || c == '"') {
                quote = c;
                jdbc.append(c);
            } else if (c == ':'
                    && i + 1 < text.length()
                    && Character.isLetter(text.charAt(i + 1))
                    && (i == 0 || text.charAt(i - 1) != ':')) {
                int end = i + 1;
                while (end < text.length()
                        && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_')) {
                    end++;
                }
                parameters.add(text.substring(i + 1, end));
                jdbc.append('?');
                i = end - 1;
            } else {
                jdbc.append(c);
            }
        }
        return new SqlStatement(text, jdbc.toString(), Collections.unmodifiableList(parameters));
    }

    /** This statement with {@code more} written after it, such as a locking clause. */
    public SqlStatement then(String more) {
        return of(text + more);
    }

    /** This statement with {@code before} written in front of it, such as MariaDB's {@code SET STATEMENT ... FOR}. */
    public SqlStatement after(String before) {
        return of(before + text);
    }

    /** The statement as JDBC takes it, with {@code ?} for each parameter. */
    public String jdbc() {
        return jdbc;
    }

    /** The parameters' names, in the order of the {@code ?}s (a name may occur more than once). */
    public List<String> parameters() {
        return parameters;
    }

    /**
     * Prepares this statement and binds every parameter it names from {@code values}; values it does not name
     * are ignored, so a dialect may leave one out.
     *
     * @throws IllegalArgumentException if {@code values} lacks a parameter the statement names
     */
    public PreparedStatement prepare(Connection connection, Values values) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(jdbc);
        try {
            bind(statement, values);
            return statement;
        } catch (SQLException | RuntimeException e) {
            statement.close();
            throw e;
        }
    }

    /** Prepares this statement without values: for a query without parameters, or a batch bound row by row. */
    public PreparedStatement prepare(Connection connection) throws SQLException {
        return connection.prepareStatement(jdbc);
    }

    /**
     * Binds every parameter this statement names from {@code values}, on a statement prepared from it.
     *
     * @throws IllegalArgumentException if {@code values} lacks a parameter the statement names
     */
    public void bind(PreparedStatement statement, Values values) throws SQLException {
        for (int i = 0; i < parameters.size(); i++) {
            values.bind(statement, i + 1, parameters.get(i));
        }
    }

    @Override
    public String toString() {
        return text;
    }

    /**
     * Named values for a statement: text (possibly {@code null}), whole numbers, bytes and timestamps.
     * Not thread-safe; made for one statement.
     */
    public static final class Values {
        private final Map<String, Object> values = new HashMap<>();

        private Values() {}

        public static Values of() {
            return new Values();
        }

        /** @param value text, or {@code null} for SQL NULL */
        public Values text(String name, String value) {
            values.put(name, value);
            return this;
        }

        public Values number(String name, long value) {
            values.put(name, value);
            return this;
        }

        public Values bytes(String name, byte[] value) {
            values.put(name, value);
            return this;
        }

        public Values timestamp(String name, Timestamp value) {
            values.put(name, value);
            return this;
        }

        private void bind(PreparedStatement statement, int index, String name) throws SQLException {
            if (!values.containsKey(name)) {
                throw new IllegalArgumentException(
                        "no value for the parameter :" + name + "; given " + values.keySet());
            }
            Object value = values.get(name);
            if (value == null) {
                statement.setNull(index, Types.VARCHAR);
            } else if (value instanceof String text) {
                statement.setString(index, text);
            } else if (value instanceof Long number) {
                statement.setLong(index, number);
            } else if (value instanceof byte[] bytes) {
                statement.setBytes(index, bytes);
            } else {
                statement.setTimestamp(index, (Timestamp) value);
            }
        }
    }
}
