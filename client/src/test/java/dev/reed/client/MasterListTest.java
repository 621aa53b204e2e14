package dev.reed.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.proto.v1.GameProtocol;
import java.io.ByteArrayOutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The traditional list from master servers over real UDP on loopback. The masters here are small
 * scripted responders speaking the wire formats of docs/protocols.md; the coordinator's real master
 * front end is used in {@link EndToEndTest}.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MasterListTest {

  @Test
  void quake3MasterListAcrossTwoPacketsEndingWithEot() throws Exception {
    try (DatagramSocket master = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      Thread responder = Thread.ofVirtual().start(() -> {
        try {
          DatagramPacket req = new DatagramPacket(new byte[1500], 1500);
          master.receive(req);
          String text = new String(req.getData(), 4, req.getLength() - 4, StandardCharsets.US_ASCII);
          if (!text.equals("getservers 71 empty full")) return;
          send(master, req, q3Reply(List.of(entry(127, 0, 0, 5, 27960), entry(127, 0, 0, 6, 27961)), false));
          send(master, req, "junk that is not a master reply".getBytes(StandardCharsets.US_ASCII));
          send(master, req, q3Reply(List.of(entry(127, 0, 0, 7, 27962)), true));
        } catch (Exception e) {
          // the test fails on the missing list
        }
      });
      List<ListedServer> list = ServerListSource.quake3Master((InetSocketAddress) master.getLocalSocketAddress(), 71)
          .fetch(Duration.ofSeconds(5));
      responder.join();
      assertThat(list).extracting(ListedServer::key).containsExactly("127.0.0.5:27960", "127.0.0.6:27961", "127.0.0.7:27962");
      assertThat(list).allMatch(s -> s.protocol() == GameProtocol.GAME_PROTOCOL_QUAKE3);
    }
  }

  @Test
  void aSilentQuake3MasterIsAClearError() throws Exception {
    try (DatagramSocket master = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      ServerListSource source = ServerListSource.quake3Master((InetSocketAddress) master.getLocalSocketAddress(), 68);
      assertThatThrownBy(() -> source.fetch(Duration.ofMillis(200)))
          .isInstanceOfSatisfying(ReedClientException.class, e -> {
            assertThat(e.kind()).isEqualTo(ReedClientException.Kind.SERVER_LIST_FAILED);
            assertThat(e.getMessage()).contains("quake3 master 127.0.0.1:" + master.getLocalPort()).contains("did not answer");
          });
    }
  }

  @Test
  void valveMasterPagesWithTheLastAddressAsSeed() throws Exception {
    try (DatagramSocket master = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      List<String> seeds = new ArrayList<>();
      Thread responder = Thread.ofVirtual().start(() -> {
        try {
          for (int page = 0; page < 2; page++) {
            DatagramPacket req = new DatagramPacket(new byte[1500], 1500);
            master.receive(req);
            byte[] d = req.getData();
            int end = 2;
            while (d[end] != 0) end++;
            seeds.add(new String(d, 2, end - 2, StandardCharsets.US_ASCII));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(new byte[] {-1, -1, -1, -1, 0x66, 0x0A});
            if (page == 0) {
              out.writeBytes(entry(127, 0, 1, 1, 27015));
              out.writeBytes(entry(127, 0, 1, 2, 27016));
            } else {
              out.writeBytes(entry(127, 0, 1, 3, 27017));
              out.writeBytes(entry(0, 0, 0, 0, 0));
            }
            send(master, req, out.toByteArray());
          }
        } catch (Exception e) {
          // the test fails on the missing list
        }
      });
      List<ListedServer> list = ServerListSource.valveMaster((InetSocketAddress) master.getLocalSocketAddress(), "\\gamedir\\cstrike")
          .fetch(Duration.ofSeconds(5));
      responder.join();
      assertThat(list).extracting(ListedServer::key).containsExactly("127.0.1.1:27015", "127.0.1.2:27016", "127.0.1.3:27017");
      assertThat(list).allMatch(s -> s.protocol() == GameProtocol.GAME_PROTOCOL_A2S);
      assertThat(seeds).containsExactly("0.0.0.0:0", "127.0.1.2:27016");
    }
  }

  private static byte[] entry(int a, int b, int c, int d, int port) {
    return new byte[] {(byte) a, (byte) b, (byte) c, (byte) d, (byte) (port >> 8), (byte) port};
  }

  private static byte[] q3Reply(List<byte[]> entries, boolean eot) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(new byte[] {-1, -1, -1, -1});
    out.writeBytes("getserversResponse".getBytes(StandardCharsets.US_ASCII));
    for (byte[] e : entries) {
      out.write('\\');
      out.writeBytes(e);
    }
    if (eot) out.writeBytes("\\EOT\0\0\0".getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }

  private static void send(DatagramSocket s, DatagramPacket to, byte[] data) throws java.io.IOException {
    s.send(new DatagramPacket(data, data.length, to.getSocketAddress()));
  }
}
