package dev.reed.runtime;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * A service's operations endpoint, what Prometheus scrapes and Kubernetes and Docker probe:
 * {@code GET /metrics} (Prometheus text format) and {@code GET /healthz} (200 when healthy, 503
 * otherwise, with a one-line reason: {@code ok: ...} or {@code unhealthy: ...}); {@code HEAD}
 * too, other methods get 405 and other paths 404. Used by the landmark agent and the coordinator.
 * Uses the JDK's own HTTP server: two plain-text endpoints need no framework.
 */
public final class OpsServer implements AutoCloseable {
  /**
   * Health verdict for {@code /healthz}.
   *
   * @param ok 200 when true, 503 when false
   * @param detail one line saying why
   */
  public record Health(boolean ok, String detail) {}

  private final HttpServer server;
  private final ExecutorService executor;

  private OpsServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Binds and starts serving.
   *
   * @param metrics the Prometheus text exposition, e.g. {@code PrometheusMeterRegistry::scrape}
   * @param health asked on every {@code /healthz}
   */
  public static OpsServer start(InetSocketAddress bind, Supplier<String> metrics, Supplier<Health> health)
      throws IOException {
    HttpServer s = HttpServer.create(bind, 16);
    s.createContext("/metrics", ex -> {
      if (!get(ex)) return;
      respond(ex, 200, "text/plain; version=0.0.4; charset=utf-8", metrics.get());
    });
    s.createContext("/healthz", ex -> {
      if (!get(ex)) return;
      Health h = health.get();
      respond(ex, h.ok() ? 200 : 503, "text/plain; charset=utf-8", (h.ok() ? "ok: " : "unhealthy: ") + h.detail() + "\n");
    });
    s.createContext("/", ex -> respond(ex, 404, "text/plain; charset=utf-8", "try /metrics or /healthz\n"));
    ExecutorService ex = Executors.newSingleThreadExecutor(r -> Thread.ofPlatform().name("reed-ops-http").daemon().unstarted(r));
    s.setExecutor(ex);
    s.start();
    return new OpsServer(s, ex);
  }

  /** The bound address (the real port when 0 was asked). */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  private static boolean get(HttpExchange ex) throws IOException {
    if (ex.getRequestMethod().equals("GET") || ex.getRequestMethod().equals("HEAD")) return true;
    respond(ex, 405, "text/plain; charset=utf-8", "only GET\n");
    return false;
  }

  private static void respond(HttpExchange ex, int status, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", type);
    boolean head = ex.getRequestMethod().equals("HEAD");
    ex.sendResponseHeaders(status, head ? -1 : bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      if (!head) out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
