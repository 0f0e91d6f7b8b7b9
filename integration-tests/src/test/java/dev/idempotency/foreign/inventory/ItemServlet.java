package dev.idempotency.foreign.inventory;

import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * {@code POST /api/items} adds an item and answers 201 with it; {@code GET /api/items} lists them. Declared in
 * the metadata-complete web.xml; JSON through JSON-B.
 */
public class ItemServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final Jsonb JSON = JsonbBuilder.create();

    /** The request body. */
    public static class NewItem {
        public String name;
        public int quantity;
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        NewItem item = JSON.fromJson(request.getInputStream(), NewItem.class);
        response.setStatus(201);
        write(response, items().add(item.name, item.quantity));
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        write(response, items().all());
    }

    private static void write(HttpServletResponse response, Object body) throws IOException {
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(JSON.toJson(body));
    }

    /** Looked up, not injected: the metadata-complete descriptor turns annotation-driven injection off. */
    private static ItemService items() {
        try {
            return InitialContext.doLookup("java:module/ItemService");
        } catch (NamingException e) {
            throw new IllegalStateException(e);
        }
    }
}
