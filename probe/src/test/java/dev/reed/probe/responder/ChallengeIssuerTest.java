package dev.reed.probe.responder;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ChallengeIssuerTest {
  private final AtomicLong now = new AtomicLong(5_000_000_000L);
  private final ChallengeIssuer issuer = new ChallengeIssuer(now::get, 30_000_000_000L);
  private final InetSocketAddress a = new InetSocketAddress("127.0.0.1", 5000);
  private final InetSocketAddress b = new InetSocketAddress("127.0.0.1", 5001);

  @Test
  void challengeIsBoundToTheAddress() {
    int ca = issuer.issue(a);
    assertThat(issuer.issue(a)).isEqualTo(ca);
    assertThat(issuer.valid(a, ca)).isTrue();
    assertThat(issuer.valid(b, ca)).isFalse();
    assertThat(issuer.valid(a, ca + 1)).isFalse();
    assertThat(ca).isNotIn(0, -1);
  }

  @Test
  void survivesOneRotationNotTwo() {
    int c = issuer.issue(a);
    now.addAndGet(30_000_000_000L);
    assertThat(issuer.valid(a, c)).isTrue();
    assertThat(issuer.issue(a)).isNotEqualTo(c);
    now.addAndGet(30_000_000_000L);
    assertThat(issuer.valid(a, c)).isFalse();
  }
}
