package dev.reed.agent.beacon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The WebSocket beacon over real loopback sockets, with the JDK's WebSocket client. One beacon with
 * an origin list serves the echo, delay, origin and size tests (an Armeria server takes 2 s to stop);
 * the limits and TLS get their own.
 */
@org.junit.jupiter.api.TestInstance(org.junit.jupiter.api.TestInstance.Lifecycle.PER_CLASS)
class WsBeaconTest {
  private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 0);
  private static final String ALLOWED = "https://servers.example";

  /** The shared beacon's echo delay, set per test. */
  private final java.util.concurrent.atomic.AtomicReference<Duration> delay = new java.util.concurrent.atomic.AtomicReference<>(Duration.ZERO);
  private WsBeacon shared;

  @org.junit.jupiter.api.BeforeAll
  void startShared() {
    shared = start(limits(List.of(ALLOWED), 8, 1000), remote -> delay.get());
  }

  @org.junit.jupiter.api.AfterAll
  void stopShared() {
    if (shared != null) shared.close();
  }

  @org.junit.jupiter.api.BeforeEach
  void noDelay() {
    delay.set(Duration.ZERO);
  }

  private static WsBeacon start(WsBeaconConfig config, EchoDelay delay) {
    return new WsBeacon(config, InetAddress.getLoopbackAddress(), delay, System::nanoTime);
  }

  private static WsBeaconConfig limits(List<String> origins, int connections, double rate) {
    return new WsBeaconConfig(LOOPBACK, null, null, null, origins, connections, rate);
  }

  @Test
  void echoesTextAndBinaryFramesVerbatimOverTheOpenConnection() throws Exception {
    WsBeacon beacon = shared;
    WsBeacon.Counters before = beacon.counters();
    try (WsClient client = new WsClient(beacon.url())) {
      assertThat(beacon.url()).isEqualTo("ws://127.0.0.1:" + beacon.localAddress().getPort() + "/");
      for (int i = 0; i < 10; i++) {
        String ping = "p:" + i + ":" + System.nanoTime() / 1e6;
        assertThat(client.echo(ping)).isEqualTo(ping);
      }
      byte[] payload = new byte[64];
      for (int i = 0; i < payload.length; i++) payload[i] = (byte) (i * 7);
      client.ws.sendBinary(ByteBuffer.wrap(payload), true).join();
      assertThat((byte[]) client.received.poll(5, TimeUnit.SECONDS)).isEqualTo(payload);
      assertThat(beacon.counters().echoed() - before.echoed()).isEqualTo(11);
      assertThat(beacon.counters().accepted() - before.accepted()).isEqualTo(1);
    }
  }

  @Test
  void theInjectedDelayHoldsEachEcho() throws Exception {
    try (WsClient client = new WsClient(shared.url())) {
      client.echo("warm-up");
      delay.set(Duration.ofMillis(40));
      long t0 = System.nanoTime();
      assertThat(client.echo("p:1")).isEqualTo("p:1");
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isBetween(40L, 1000L);
    }
  }

  @Test
  void aDisallowedOriginIsRefusedAtTheUpgradeAndAnAllowedOneAccepted() throws Exception {
    WsBeacon beacon = shared;
    long refused = beacon.counters().rejected().get(WsBeacon.Rejection.ORIGIN);
    HttpClient http = HttpClient.newHttpClient();
    assertThatThrownBy(() -> new WsClient(http, beacon.url(), "https://evil.example"))
        .isInstanceOf(CompletionException.class)
        .hasCauseInstanceOf(WebSocketHandshakeException.class)
        .satisfies(e -> assertThat(((WebSocketHandshakeException) e.getCause()).getResponse().statusCode()).isEqualTo(403));
    try (WsClient ok = new WsClient(http, beacon.url(), "https://servers.example")) {
      assertThat(ok.echo("p:1")).isEqualTo("p:1");
    }
    assertThat(beacon.counters().rejected().get(WsBeacon.Rejection.ORIGIN) - refused).isEqualTo(1);
  }

  @Test
  void aFrameOver64BytesClosesTheConnectionWith1009() throws Exception {
    WsBeacon beacon = shared;
    long oversize = beacon.counters().rejected().get(WsBeacon.Rejection.OVERSIZE);
    try (WsClient client = new WsClient(beacon.url())) {
      assertThat(client.echo("x".repeat(64))).hasSize(64);
      client.ws.sendText("x".repeat(65), true).join();
      assertThat(client.closeCode.get(5, TimeUnit.SECONDS)).isEqualTo(1009);
      assertThat(client.received).isEmpty();
      assertThat(beacon.counters().rejected().get(WsBeacon.Rejection.OVERSIZE) - oversize).isEqualTo(1);
    }
  }

  @Test
  void framesOverTheRateCloseTheConnectionWith1008() throws Exception {
    try (WsBeacon beacon = start(limits(List.of(), 8, 5), EchoDelay.NONE);
        WsClient client = new WsClient(beacon.url())) {
      for (int i = 0; i < 20 && !client.closeCode.isDone(); i++) client.ws.sendText("p:" + i, true).join();
      assertThat(client.closeCode.get(5, TimeUnit.SECONDS)).isEqualTo(1008);
      // the burst is two seconds' worth: 10 echoed, then the 11th frame closes the connection
      assertThat(beacon.counters().echoed()).isEqualTo(10);
      assertThat(beacon.counters().rejected().get(WsBeacon.Rejection.RATE)).isEqualTo(1);
    }
  }

  @Test
  void pingsSpendTokensSoAnIdleConnectionCannotBeHeldForFree() throws Exception {
    java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();
    try (WsBeacon beacon = new WsBeacon(limits(List.of(), 8, 5), InetAddress.getLoopbackAddress(), EchoDelay.NONE, now::get);
        WsClient client = new WsClient(beacon.url())) {
      for (int i = 0; i < 30 && !client.closeCode.isDone(); i++) {
        client.ws.sendPing(ByteBuffer.wrap(new byte[] {(byte) i})).join();
      }
      assertThat(client.closeCode.get(5, TimeUnit.SECONDS)).isEqualTo(1008);
      assertThat(beacon.counters().rejected().get(WsBeacon.Rejection.RATE)).isEqualTo(1);
      assertThat(beacon.counters().echoed()).isZero();
    }
  }

  @Test
  void everyAddressOfOnePrefixSharesItsConnectionsAndFrames() throws Exception {
    java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();
    try (WsBeacon beacon = new WsBeacon(new WsBeaconConfig(new InetSocketAddress("0.0.0.0", 0), null, null, null, List.of(),
        2, 5), InetAddress.getLoopbackAddress(), EchoDelay.NONE, now::get)) {
      String url = "ws://127.0.0.1:" + beacon.localAddress().getPort() + "/";
      WsClient a = new WsClient(from("127.0.0.1"), url, null);
      WsClient b = new WsClient(from("127.0.0.2"), url, null);
      assertThatThrownBy(() -> new WsClient(from("127.0.0.3"), url, null))
          .as("a third address of the same /24")
          .hasCauseInstanceOf(WebSocketHandshakeException.class);
      WsClient other = new WsClient(from("127.0.1.1"), url, null);
      // 10 tokens for the /24 (burst of 5/s), spent from two addresses; the other /24 keeps its own
      for (int i = 0; i < 5; i++) assertThat(a.echo("a" + i)).isEqualTo("a" + i);
      for (int i = 0; i < 5; i++) assertThat(b.echo("b" + i)).isEqualTo("b" + i);
      b.ws.sendText("b5", true).join();
      assertThat(b.closeCode.get(5, TimeUnit.SECONDS)).isEqualTo(1008);
      for (int i = 0; i < 10; i++) assertThat(other.echo("o" + i)).isEqualTo("o" + i);
      a.close();
      other.close();
    }
  }

  private static HttpClient from(String local) throws java.net.UnknownHostException {
    return HttpClient.newBuilder().localAddress(InetAddress.getByName(local)).build();
  }

  @Test
  void connectionsOverTheLimitPerAddressAreRefusedAndFreedOnClose() throws Exception {
    try (WsBeacon beacon = start(limits(List.of(), 2, 100), EchoDelay.NONE)) {
      HttpClient http = HttpClient.newHttpClient();
      WsClient a = new WsClient(http, beacon.url(), null);
      WsClient b = new WsClient(http, beacon.url(), null);
      assertThatThrownBy(() -> new WsClient(http, beacon.url(), null))
          .hasCauseInstanceOf(WebSocketHandshakeException.class)
          .satisfies(e -> assertThat(((WebSocketHandshakeException) e.getCause()).getResponse().statusCode()).isEqualTo(429));
      assertThat(beacon.counters().rejected().get(WsBeacon.Rejection.CONNECTIONS)).isEqualTo(1);
      a.close();
      b.echo("still here");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (beacon.counters().open() > 1 && System.nanoTime() < deadline) Thread.sleep(10);
      try (WsClient c = new WsClient(http, beacon.url(), null)) {
        assertThat(c.echo("p:3")).isEqualTo("p:3");
      }
      b.close();
    }
  }

  @Test
  void servesWssWithAPemCertificateAndKey(@TempDir Path dir) throws Exception {
    // Armeria's own self-signed certificate generator (internal, test only): PEM files as an operator has them
    var self = new com.linecorp.armeria.internal.common.util.SelfSignedCertificate("localhost",
        new java.security.SecureRandom(), "EC", 256); // EC: an RSA key takes seconds to generate on a busy machine
    Path cert = Files.copy(self.certificate().toPath(), dir.resolve("cert.pem"));
    Path key = Files.copy(self.privateKey().toPath(), dir.resolve("key.pem"));
    WsBeaconConfig config = new WsBeaconConfig(LOOPBACK, InetSocketAddress.createUnresolved("localhost", 1),
        cert, key, List.of(), 8, 20);
    try (WsBeacon beacon = start(config, EchoDelay.NONE)) {
      assertThat(beacon.url()).isEqualTo("wss://localhost:1/");
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      try (InputStream in = Files.newInputStream(cert)) {
        trust.setCertificateEntry("beacon", CertificateFactory.getInstance("X.509").generateCertificate(in));
      }
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      SSLContext ssl = SSLContext.getInstance("TLS");
      ssl.init(null, tmf.getTrustManagers(), null);
      HttpClient https = HttpClient.newBuilder().sslContext(ssl).build();
      String url = "wss://localhost:" + beacon.localAddress().getPort() + "/";
      try (WsClient client = new WsClient(https, url, null)) {
        assertThat(client.echo("p:tls")).isEqualTo("p:tls");
      }
      // a plain ws:// client gets no WebSocket from a TLS port
      assertThatThrownBy(() -> new WsClient("ws://127.0.0.1:" + beacon.localAddress().getPort() + "/"))
          .isInstanceOf(CompletionException.class);
    }
  }

  @Test
  void badSettingsAreRefusedWithClearMessages() {
    assertThatThrownBy(() -> limits(List.of("servers.example"), 8, 20)).hasMessageContaining("SCHEME://HOST");
    assertThatThrownBy(() -> limits(List.of(), 0, 20)).hasMessageContaining("1-1000");
    assertThatThrownBy(() -> limits(List.of(), 8, Double.NaN)).hasMessageContaining("> 0");
    assertThatThrownBy(() -> new WsBeaconConfig(LOOPBACK, null, Path.of("c.pem"), null, List.of(), 8, 20))
        .hasMessageContaining("go together");
  }
}
