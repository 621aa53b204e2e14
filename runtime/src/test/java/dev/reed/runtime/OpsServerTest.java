package dev.reed.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class OpsServerTest {
  final HttpClient http = HttpClient.newHttpClient();

  HttpResponse<String> send(OpsServer s, String method, String path) throws Exception {
    URI uri = URI.create("http://127.0.0.1:" + s.address().getPort() + path);
    return http.send(HttpRequest.newBuilder(uri).method(method, HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void servesMetricsAndHealthWithItsReasonAndNothingElse() throws Exception {
    AtomicReference<OpsServer.Health> health = new AtomicReference<>(new OpsServer.Health(true, "round 3"));
    try (OpsServer s = OpsServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
        () -> "reed_rounds_total 3.0\n", health::get)) {
      HttpResponse<String> metrics = send(s, "GET", "/metrics");
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body()).isEqualTo("reed_rounds_total 3.0\n");
      assertThat(metrics.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
      assertThat(send(s, "GET", "/healthz").body()).isEqualTo("ok: round 3\n");
      health.set(new OpsServer.Health(false, "no round for 900 s"));
      HttpResponse<String> sick = send(s, "GET", "/healthz");
      assertThat(sick.statusCode()).isEqualTo(503);
      assertThat(sick.body()).isEqualTo("unhealthy: no round for 900 s\n");
      HttpResponse<String> head = send(s, "HEAD", "/healthz");
      assertThat(head.statusCode()).isEqualTo(503);
      assertThat(head.body()).isEmpty();
      assertThat(send(s, "POST", "/metrics").statusCode()).isEqualTo(405);
      assertThat(send(s, "GET", "/").statusCode()).isEqualTo(404);
    }
  }
}
