package dev.reed.coordinator.leader;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP fake of the Kubernetes Lease endpoints ({@code coordination.k8s.io/v1}) with the API
 * server's optimistic concurrency: GET (404 if absent), POST (409 if present), PUT (409 unless the
 * resourceVersion matches). Each client reaches it under its own path prefix ({@code /<client>})
 * so a test can cut one client off (503) to play a leader that stops renewing.
 */
public final class FakeLeaseApi implements AutoCloseable {
  private final HttpServer server;
  private JsonObject lease;
  private int version;
  final Set<String> cutOff = ConcurrentHashMap.newKeySet();
  final AtomicInteger writes = new AtomicInteger();
  private final java.util.Map<String, AtomicInteger> answered = new ConcurrentHashMap<>();

  public FakeLeaseApi() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
    server.createContext("/", this::handle);
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.start();
  }

  public String baseUrl(String client) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/" + client;
  }

  /** Requests from {@code client} that were not cut off. */
  public int answered(String client) {
    AtomicInteger n = answered.get(client);
    return n == null ? 0 : n.get();
  }

  public synchronized String holder() {
    return lease == null ? null : lease.getAsJsonObject("spec").get("holderIdentity").getAsString();
  }

  private void handle(HttpExchange x) throws IOException {
    String path = x.getRequestURI().getPath();
    String client = path.split("/")[1];
    String api = path.substring(client.length() + 1);
    if (cutOff.contains(client)) {
      reply(x, 503, status(503, "ServiceUnavailable", "cut off"));
      return;
    }
    answered.computeIfAbsent(client, c -> new AtomicInteger()).incrementAndGet();
    String body = new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    if (!api.startsWith("/apis/coordination.k8s.io/v1/namespaces/")) {
      reply(x, 404, status(404, "NotFound", "no such path " + api));
      return;
    }
    synchronized (this) {
      switch (x.getRequestMethod()) {
        case "GET" -> {
          if (lease == null) reply(x, 404, status(404, "NotFound", "leases not found"));
          else reply(x, 200, lease.toString());
        }
        case "POST" -> {
          if (lease != null) {
            reply(x, 409, status(409, "AlreadyExists", "lease exists"));
            return;
          }
          lease = stamp(JsonParser.parseString(body).getAsJsonObject());
          writes.incrementAndGet();
          reply(x, 201, lease.toString());
        }
        case "PUT" -> {
          JsonObject next = JsonParser.parseString(body).getAsJsonObject();
          String rv = next.getAsJsonObject("metadata").has("resourceVersion")
              ? next.getAsJsonObject("metadata").get("resourceVersion").getAsString() : "";
          if (lease == null || !rv.equals(Integer.toString(version))) {
            reply(x, 409, status(409, "Conflict", "resourceVersion " + rv + " is stale"));
            return;
          }
          lease = stamp(next);
          writes.incrementAndGet();
          reply(x, 200, lease.toString());
        }
        default -> reply(x, 405, status(405, "MethodNotAllowed", x.getRequestMethod()));
      }
    }
  }

  private JsonObject stamp(JsonObject o) {
    version++;
    o.addProperty("apiVersion", "coordination.k8s.io/v1");
    o.addProperty("kind", "Lease");
    o.getAsJsonObject("metadata").addProperty("resourceVersion", Integer.toString(version));
    return o;
  }

  private static String status(int code, String reason, String message) {
    JsonObject s = new JsonObject();
    s.addProperty("kind", "Status");
    s.addProperty("apiVersion", "v1");
    s.addProperty("status", "Failure");
    s.addProperty("reason", reason);
    s.addProperty("message", message);
    s.addProperty("code", code);
    return s.toString();
  }

  private static void reply(HttpExchange x, int code, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().set("Content-Type", "application/json");
    x.sendResponseHeaders(code, b.length);
    try (OutputStream o = x.getResponseBody()) {
      o.write(b);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }
}
