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
  void literalParsesDottedQuadsExactlyAsTheJdkAndRejectsEverythingElse() throws Exception {
    for (String ok : new String[] {"0.0.0.0", "255.255.255.255", "10.0.0.1", "127.100.78.188", "203.0.113.7", "1.22.199.250"}) {
      assertThat(Endpoints.literal(ok)).as(ok).isEqualTo(java.net.InetAddress.getByName(ok));
      assertThat(Endpoints.literal(ok).getHostAddress()).isEqualTo(ok);
    }
    for (String bad : new String[] {"256.1.1.1", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1.2.3.4 ", "1..2.3", "1.2.3.", ".1.2.3",
        "1.2.3.1000", "a.b.c.d", "", "1.2.3.-4", "example.com"}) {
      assertThatThrownBy(() -> Endpoints.literal(bad)).as("'" + bad + "'").hasMessageContaining("not a literal IP address");
    }
    assertThat(Endpoints.literal("::1").isLoopbackAddress()).isTrue();
    assertThat(Endpoints.literal("::ffff:10.0.0.1")).isEqualTo(java.net.InetAddress.getByName("::ffff:10.0.0.1"));
  }

  @Test
  void hostPortSplitsEveryFormOperatorsTypeAndSaysWhatIsMissing() {
    assertThat(Endpoints.hostPort("kafka:9092", -1)).isEqualTo(new Endpoints.HostPort("kafka", 9092));
    assertThat(Endpoints.hostPort(" [2001:db8::7]:27015 ", -1)).isEqualTo(new Endpoints.HostPort("2001:db8::7", 27015));
    assertThat(Endpoints.hostPort("2001:db8::7:27015", -1)).as("port required: the last colon starts it")
        .isEqualTo(new Endpoints.HostPort("2001:db8::7", 27015));
    assertThat(Endpoints.hostPort("2001:db8::7", 27960)).as("with a default port: an address alone")
        .isEqualTo(new Endpoints.HostPort("2001:db8::7", 27960));
    assertThat(Endpoints.hostPort("[::1]", 0)).isEqualTo(new Endpoints.HostPort("::1", 0));
    assertThat(Endpoints.hostPort("10.0.0.1", 27960)).isEqualTo(new Endpoints.HostPort("10.0.0.1", 27960));
    assertThat(Endpoints.hostPort(":9400", 0)).isEqualTo(new Endpoints.HostPort("", 9400));
    assertThatThrownBy(() -> Endpoints.hostPort("kafka", -1)).hasMessage("expected HOST:PORT, got 'kafka'");
    assertThatThrownBy(() -> Endpoints.hostPort("kafka:", -1)).hasMessage("expected HOST:PORT, got 'kafka:'");
    assertThatThrownBy(() -> Endpoints.hostPort(":9092", -1)).hasMessage("expected HOST:PORT, got ':9092'");
    assertThatThrownBy(() -> Endpoints.hostPort("kafka:x", -1)).hasMessage("bad port in 'kafka:x'");
    assertThatThrownBy(() -> Endpoints.hostPort("kafka:65536", 0)).hasMessage("port out of range 0-65535 in 'kafka:65536'");
  }

  @Test
  void socketAddressResolvesOperatorInputAndEmptyMeansEveryInterface() {
    assertThat(Endpoints.socketAddress("127.0.0.2:27960", -1)).isEqualTo(new InetSocketAddress("127.0.0.2", 27960));
    assertThat(Endpoints.socketAddress(":9400", 0).getAddress().isAnyLocalAddress()).isTrue();
    assertThat(Endpoints.socketAddress("localhost", 5).getAddress().isLoopbackAddress()).isTrue();
    assertThatThrownBy(() -> Endpoints.socketAddress("no-such-host.invalid:1", -1))
        .hasMessage("cannot resolve 'no-such-host.invalid' in 'no-such-host.invalid:1'");
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
