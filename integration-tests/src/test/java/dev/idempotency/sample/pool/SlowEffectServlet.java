package dev.idempotency.sample.pool;

import jakarta.annotation.Resource;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Test-only: records its effect (a row labelled with the request body) through the small pool's datasource,
 * then holds its transaction for {@code X-Test-Sleep-Millis}, like a slow payment would.
 */
@WebServlet("/effects")
public class SlowEffectServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Resource(lookup = "java:jboss/datasources/SmallPoolDS")
    private DataSource dataSource;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String label = new String(request.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement("insert into pool_effect (label) values (?)")) {
            insert.setString(1, label);
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        String sleep = request.getHeader("X-Test-Sleep-Millis");
        try {
            Thread.sleep(sleep == null ? 0 : Long.parseLong(sleep));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        response.setContentType("text/plain;charset=UTF-8");
        response.getWriter().write("recorded " + label);
    }
}
