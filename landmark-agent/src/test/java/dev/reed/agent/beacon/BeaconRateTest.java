package dev.reed.agent.beacon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.probe.responder.ReplyDelay;
import dev.reed.runtime.PrefixBuckets;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The UDP beacon's limit per network prefix, over real loopback sockets from several 127.x addresses. */
class BeaconRateTest {
  private static final byte[] GETINFO = "\u00ff\u00ff\u00ff\u00ffgetinfo abc\n".getBytes(StandardCharsets.ISO_8859_1);

  /** Queries sent from {@code local}, one at a time; returns how many were answered. */
  private static int answered(InetSocketAddress beacon, String local, int queries) throws Exception {
    int n = 0;
    try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(local), 0))) {
      s.setSoTimeout(300);
      byte[] buf = new byte[2048];
      for (int i = 0; i < queries; i++) {
        s.send(new DatagramPacket(GETINFO, GETINFO.length, beacon));
        try {
          s.receive(new DatagramPacket(buf, buf.length));
          n++;
        } catch (SocketTimeoutException e) {
          // dropped: over the rate
        }
      }
    }
    return n;
  }

  @Test
  void onePrefixGetsItsBurstWhateverItsAddressesAndAnotherPrefixIsServed() throws Exception {
    AtomicLong now = new AtomicLong();
    PrefixBuckets limit = PrefixBuckets.of(PrefixBuckets.Limit.perSecond(5), now::get);
    try (Beacon beacon = Beacon.start(new InetSocketAddress("0.0.0.0", 0), "lm-1", "test", "test", ReplyDelay.NONE, limit)) {
      InetSocketAddress at = new InetSocketAddress("127.0.0.1", beacon.localAddress().getPort());
      assertThat(answered(at, "127.0.0.1", 6) + answered(at, "127.0.0.2", 6)).as("burst of 10 for 127.0.0.0/24").isEqualTo(10);
      assertThat(answered(at, "127.0.0.3", 2)).isZero();
      assertThat(answered(at, "127.0.1.1", 3)).as("another /24").isEqualTo(3);
      now.addAndGet(1_000_000_000L);
      assertThat(answered(at, "127.0.0.9", 8)).as("5 tokens a second later").isEqualTo(5);
      assertThat(beacon.responder().counters().rateLimited()).isEqualTo(2 + 2 + 3);
    }
  }
}
