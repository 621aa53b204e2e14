package dev.reed.agent.beacon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.probe.responder.ReplyDelay;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a WebSocket echo adds to a UDP query RTT to the same agent: both beacons of one agent on
 * loopback, probed alternately from Java (a Quake3 getinfo over UDP, a text frame over an open
 * WebSocket), so both see the same machine load. Loopback has no path delay, so the difference of
 * the two is the transports' own cost. {@code main} runs more samples and prints them for the README.
 */
class WsOverheadTest {
  private static final byte[] GETINFO = "\u00ff\u00ff\u00ff\u00ffgetinfo reed\n".getBytes(StandardCharsets.ISO_8859_1);

  /** RTT samples in microseconds: {udp, ws}. */
  static long[][] measure(int samples, int warmup) throws Exception {
    InetSocketAddress loopback = new InetSocketAddress("127.0.0.1", 0);
    try (Beacon udp = Beacon.start(loopback, "lm-overhead", "test", "test", ReplyDelay.NONE);
        WsBeacon ws = new WsBeacon(new WsBeaconConfig(loopback, null, null, null, List.of(), 8, 1e9),
            InetAddress.getLoopbackAddress(), EchoDelay.NONE, System::nanoTime);
        WsClient client = new WsClient(ws.url());
        DatagramSocket socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
      socket.setSoTimeout(1000);
      byte[] buf = new byte[2048];
      long[] u = new long[samples];
      long[] w = new long[samples];
      for (int i = -warmup; i < samples; i++) {
        long t0 = System.nanoTime();
        socket.send(new DatagramPacket(GETINFO, GETINFO.length, udp.localAddress()));
        DatagramPacket reply = new DatagramPacket(buf, buf.length);
        socket.receive(reply);
        long t1 = System.nanoTime();
        String ping = "p:" + i + ":" + t1;
        String echo = client.echo(ping);
        long t2 = System.nanoTime();
        if (!ping.equals(echo)) throw new AssertionError("echo " + echo + " for " + ping);
        if (reply.getLength() < 4 || buf[0] != (byte) 0xff) throw new AssertionError("not a Quake3 reply");
        if (i >= 0) {
          u[i] = (t1 - t0) / 1000;
          w[i] = (t2 - t1) / 1000;
        }
      }
      return new long[][] {u, w};
    }
  }

  static String summary(String name, long[] us) {
    long[] s = us.clone();
    Arrays.sort(s);
    return String.format("%s: n=%d min=%d us median=%d us p90=%d us p99=%d us", name, s.length, s[0], s[s.length / 2],
        s[(int) (s.length * 0.9)], s[(int) (s.length * 0.99)]);
  }

  static long median(long[] us) {
    long[] s = us.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }

  @Test
  void aWebSocketEchoCostsAboutWhatAUdpQueryCostsOnLoopback() throws Exception {
    long[][] r = measure(400, 200);
    System.out.println("[ws-overhead] " + summary("udp", r[0]) + "; " + summary("ws", r[1]));
    // both well under a millisecond on loopback: what the README states as negligible
    assertThat(median(r[0])).isLessThan(2_000);
    assertThat(median(r[1])).isLessThan(2_000);
  }

  /** {@code main [samples=5000]}: the README's numbers. */
  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
    long[][] r = measure(n, 1000);
    System.out.println(summary("udp getinfo", r[0]));
    System.out.println(summary("ws echo", r[1]));
    long[] diff = new long[n];
    for (int i = 0; i < n; i++) diff[i] = r[1][i] - r[0][i];
    System.out.println(summary("ws - udp (paired)", diff));
  }
}
