package dev.reed.coordinator.location;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.proto.Endpoints;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClientAddressTest {
  private final ClientAddress proxies = ClientAddress.trusting(List.of("10.0.0.0/8", "2001:db8::/32"));

  private static InetSocketAddress peer(String ip) {
    return new InetSocketAddress(Endpoints.literal(ip), 40000);
  }

  @Test
  void anUntrustedPeersHeaderIsIgnored() {
    assertThat(proxies.resolve(peer("203.0.113.5"), List.of("198.51.100.9"))).isEqualTo(Endpoints.literal("203.0.113.5"));
    assertThat(proxies.resolve(peer("203.0.113.5"), null)).isEqualTo(Endpoints.literal("203.0.113.5"));
  }

  @Test
  void aTrustedProxyNamesTheRightmostUntrustedHop() {
    assertThat(proxies.resolve(peer("10.1.2.3"), List.of("198.51.100.9"))).isEqualTo(Endpoints.literal("198.51.100.9"));
    // whatever the client wrote on the left does not count
    assertThat(proxies.resolve(peer("10.1.2.3"), List.of("192.0.2.1, 198.51.100.9, 10.9.9.9")))
        .isEqualTo(Endpoints.literal("198.51.100.9"));
    // several headers are one list; ports and brackets are stripped
    assertThat(proxies.resolve(peer("10.1.2.3"), List.of("192.0.2.1", "198.51.100.9:5123")))
        .isEqualTo(Endpoints.literal("198.51.100.9"));
    assertThat(proxies.resolve(peer("2001:db8::1"), List.of("[2001:db9::7]:443"))).isEqualTo(Endpoints.literal("2001:db9::7"));
    // only proxies: the leftmost is the nearest we know
    assertThat(proxies.resolve(peer("10.1.2.3"), List.of("10.7.7.7, 10.8.8.8"))).isEqualTo(Endpoints.literal("10.7.7.7"));
  }

  @Test
  void aHopThatIsNoAddressEndsTheTrust() {
    assertThat(proxies.resolve(peer("10.1.2.3"), List.of("198.51.100.9, unknown"))).isNull();
    assertThat(proxies.resolve(new io.grpc.inprocess.InProcessSocketAddress("x"), List.of("198.51.100.9"))).isNull();
  }

  @Test
  void aBadProxyBlockIsAnErrorNamingIt() {
    assertThatThrownBy(() -> ClientAddress.trusting(List.of("10.0.0.0/33"))).hasMessageContaining("--trusted-proxy")
        .hasMessageContaining("10.0.0.0/33");
  }
}
