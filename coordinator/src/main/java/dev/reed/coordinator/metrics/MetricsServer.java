package dev.reed.coordinator.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /metrics} in the Prometheus text format and {@code /healthz} (200 when healthy, 503
 * otherwise) on a small JDK HTTP server: what Kubernetes probes and Prometheus scrape.
 */
public final class MetricsServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(MetricsServer.class);
  private final HttpServer server;
  private final ExecutorService executor;

  private MetricsServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  public static MetricsServer start(InetSocketAddress bind, PrometheusMeterRegistry registry, BooleanSupplier healthy)
      throws IOException {
    HttpServer s = HttpServer.create(bind, 16);
    s.createContext("/metrics", x -> reply(x, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape()));
    s.createContext("/healthz", x -> {
      boolean ok = healthy.getAsBoolean();
      reply(x, ok ? 200 : 503, "text/plain; charset=utf-8", ok ? "ok\n" : "not ready\n");
    });
    ExecutorService executor = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("metrics-http").daemon().factory());
    s.setExecutor(executor);
    s.start();
    MetricsServer m = new MetricsServer(s, executor);
    log.info("metrics on http://{}/metrics, health on /healthz", m.address());
    return m;
  }

  private static void reply(HttpExchange x, int code, String type, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().set("Content-Type", type);
    x.sendResponseHeaders(code, b.length);
    try (OutputStream o = x.getResponseBody()) {
      o.write(b);
    }
  }

  public InetSocketAddress address() {
    return server.getAddress();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
