package dev.reed.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.proto.v1.Endpoint;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class EndpointsTest {

  @Test
  void parsesAndPrintsIpv4AndIpv6InTheCanonicalKeyForm() {
    assertThat(Endpoints.key(Endpoints.parse("203.0.113.7:27960"))).isEqualTo("203.0.113.7:27960");
    Endpoint v6 = Endpoints.parse("[2001:db8::7]:27015");
    assertThat(v6.getPort()).isEqualTo(27015);
    assertThat(Endpoints.key(v6)).startsWith("[2001:db8:").endsWith("]:27015");
    assertThat(Endpoints.toSocketAddress(v6)).isEqualTo(new InetSocketAddress(Endpoints.literal("2001:db8::7"), 27015));
  }

  @Test
  void rejectsHostNamesBadPortsAndGarbageWithAMessageThatSaysWhatIsWrong() {
    assertThatThrownBy(() -> Endpoints.parse("example.com:27960")).hasMessageContaining("not a literal IP address");
    assertThatThrownBy(() -> Endpoints.parse("10.0.0.1:70000")).hasMessageContaining("port out of range");
    assertThatThrownBy(() -> Endpoints.parse("10.0.0.1:x")).hasMessageContaining("bad port");
    assertThatThrownBy(() -> Endpoints.parse("27960")).hasMessageContaining("expected HOST:PORT");
    assertThatThrownBy(() -> Endpoints.parse("256.1.1.1:1")).hasMessageContaining("not a literal IP address");
  }

  @Test
  void everyTopicHasAConsistentCleanupPolicy() {
    for (Topic t : Topic.ALL) {
      assertThat(t.name()).startsWith("reed.");
      assertThat(t.configs().get("cleanup.policy")).isEqualTo(t.compacted() ? "compact" : "delete");
      if (!t.compacted()) assertThat(t.retention()).isPositive();
    }
    assertThat(Topic.ALL).extracting(Topic::name).doesNotHaveDuplicates();
  }
}
