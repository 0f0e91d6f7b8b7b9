package dev.idempotency.benchmarks;

/** Realistic JSON request bodies of a chosen size: unsorted members, numbers, strings and nesting. */
final class JsonBodies {
    private JsonBodies() {}

    static String ofSize(int bytes) {
        StringBuilder json = new StringBuilder("{\"memo\": \"monthly settlement\", \"amount\": 100.50, \"lines\": [");
        for (int i = 0; json.length() < bytes - 40; i++) {
            if (i > 0) {
                json.append(", ");
            }
            json.append("{\"sku\": \"item-")
                    .append(i)
                    .append("\", \"quantity\": ")
                    .append(i % 7 + 1)
                    .append(", \"price\": ")
                    .append(i * 3 % 100)
                    .append(".")
                    .append(i % 10)
                    .append("0, \"tags\": [\"a\", \"b\"]}");
        }
        return json.append("], \"currency\": \"EUR\"}").toString();
    }
}
