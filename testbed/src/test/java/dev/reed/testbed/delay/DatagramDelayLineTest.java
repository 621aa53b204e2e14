package dev.reed.testbed.delay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.probe.NanoTicker;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class DatagramDelayLineTest {

  @Test
  void sendsInDueOrderNotInScheduleOrderAndNeverEarly() throws Exception {
    try (DatagramChannel sink = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        DatagramChannel out = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      out.configureBlocking(false);
      try (DatagramDelayLine line = new DatagramDelayLine("test-line", 16, NanoTicker.SYSTEM)) {
        long t0 = System.nanoTime();
        long[] delaysMs = {60, 20, 40, 0};
        for (int i = 0; i < delaysMs.length; i++) {
          ByteBuffer payload = ByteBuffer.wrap(("d" + delaysMs[i]).getBytes(StandardCharsets.US_ASCII));
          assertThat(line.schedule(out, payload, sink.getLocalAddress(), t0 + delaysMs[i] * 1_000_000)).isTrue();
          assertThat(payload.hasRemaining()).as("the payload is consumed (copied)").isFalse();
        }
        List<String> order = new ArrayList<>();
        ByteBuffer buf = ByteBuffer.allocate(64);
        for (int i = 0; i < delaysMs.length; i++) {
          buf.clear();
          sink.receive(buf);
          long elapsedMs = (System.nanoTime() - t0) / 1_000_000;
          String text = new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII);
          assertThat(elapsedMs).as("%s arrived at %d ms", text, elapsedMs).isGreaterThanOrEqualTo(Long.parseLong(text.substring(1)));
          order.add(text);
        }
        assertThat(order).containsExactly("d0", "d20", "d40", "d60");
        var c = line.counters();
        assertThat(c.scheduled()).isEqualTo(4);
        assertThat(c.sent()).isEqualTo(4);
        assertThat(c.queued()).isZero();
      }
    }
  }

  @Test
  void aFullQueueOrAClosedLineDropsAndCounts() throws Exception {
    try (DatagramChannel out = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      out.configureBlocking(false);
      DatagramDelayLine line = new DatagramDelayLine("test-line", 2, NanoTicker.SYSTEM);
      long far = System.nanoTime() + 60_000_000_000L;
      InetSocketAddress to = (InetSocketAddress) out.getLocalAddress();
      assertThat(line.schedule(out, ByteBuffer.wrap(new byte[] {1}), to, far)).isTrue();
      assertThat(line.schedule(out, ByteBuffer.wrap(new byte[] {2}), to, far)).isTrue();
      assertThat(line.schedule(out, ByteBuffer.wrap(new byte[] {3}), to, far)).isFalse();
      assertThat(line.counters().droppedFull()).isEqualTo(1);
      assertThat(line.counters().queued()).isEqualTo(2);
      line.close();
      assertThat(line.schedule(out, ByteBuffer.wrap(new byte[] {4}), to, far)).isFalse();
      assertThat(line.counters().queued()).isZero();
    }
    assertThatThrownBy(() -> new DatagramDelayLine("x", 0, NanoTicker.SYSTEM)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aClosedChannelCountsASendFailureAndTheLineKeepsGoing() throws Exception {
    try (DatagramChannel sink = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        DatagramChannel good = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        DatagramDelayLine line = new DatagramDelayLine("test-line", 16, NanoTicker.SYSTEM)) {
      DatagramChannel closed = DatagramChannel.open();
      closed.close();
      long now = System.nanoTime();
      line.schedule(closed, ByteBuffer.wrap(new byte[] {1}), sink.getLocalAddress(), now);
      line.schedule(good, ByteBuffer.wrap(new byte[] {2}), sink.getLocalAddress(), now + 5_000_000);
      ByteBuffer buf = ByteBuffer.allocate(8);
      sink.receive(buf);
      assertThat(buf.get(0)).isEqualTo((byte) 2);
      assertThat(line.counters().sendFailed()).isEqualTo(1);
    }
  }
}
