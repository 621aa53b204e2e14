package dev.reed.coordinator.catalog;

import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.GameProtocol;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Valve master-server query front end (UDP, "Master Server Query Protocol"): answers
 * {@code 31 <region> "IP:port\0" "filter\0"} with up to 230 A2S servers after the seed address
 * in a fixed (address, port) order, so a client pages with the last address it received as the
 * next seed, exactly the cursor paging REED's Algorithm 4 borrows. The last page ends with
 * {@code 0.0.0.0:0}. Requests are parsed leniently (qstat sends a stray byte after the seed).
 */
public final class ValveMasterServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ValveMasterServer.class);
  /** One reply packet that satisfies every client seen (PROTOCOLS.md). */
  public static final int PAGE = 230;

  /** Counters for metrics and tests. */
  public record Counters(long requests, long malformed) {}

  private final DatagramSocket socket;
  private final ServerDirectory directory;
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong malformed = new AtomicLong();
  private final Thread thread;
  private volatile boolean closed;

  private ValveMasterServer(DatagramSocket socket, ServerDirectory directory) {
    this.socket = socket;
    this.directory = directory;
    this.thread = Thread.ofPlatform().name("valve-master").daemon().start(this::run);
  }

  public static ValveMasterServer start(InetSocketAddress bind, ServerDirectory directory) throws IOException {
    ValveMasterServer m = new ValveMasterServer(new DatagramSocket(bind), directory);
    log.info("valve master front end listening on udp {}", m.localAddress());
    return m;
  }

  public InetSocketAddress localAddress() {
    return (InetSocketAddress) socket.getLocalSocketAddress();
  }

  public Counters counters() {
    return new Counters(requests.get(), malformed.get());
  }

  private void run() {
    byte[] buf = new byte[1500];
    DatagramPacket p = new DatagramPacket(buf, buf.length);
    while (!closed) {
      try {
        p.setLength(buf.length);
        socket.receive(p);
        byte[] reply = answer(buf, p.getLength());
        if (reply == null) {
          malformed.incrementAndGet();
          continue;
        }
        requests.incrementAndGet();
        socket.send(new DatagramPacket(reply, reply.length, p.getSocketAddress()));
      } catch (SocketException e) {
        if (!closed) log.warn("valve master socket failed: {}", e.toString());
        return;
      } catch (IOException | RuntimeException e) {
        malformed.incrementAndGet();
      }
    }
  }

  /** The reply to one request, or null if it is not a master query. */
  byte[] answer(byte[] data, int length) {
    return answer(data, length, directory);
  }

  /** The reply to one request from {@code directory}'s servers, or null if it is not a master query. */
  static byte[] answer(byte[] data, int length, ServerDirectory directory) {
    if (length < 3 || data[0] != 0x31) return null;
    int seedEnd = indexOf(data, 2, length, (byte) 0);
    String seedText = new String(data, 2, (seedEnd < 0 ? length : seedEnd) - 2, StandardCharsets.ISO_8859_1);
    InetSocketAddress seed = parseSeed(seedText.strip());
    if (seed == null) return null;
    String filter = "";
    if (seedEnd >= 0 && seedEnd + 1 < length && data[seedEnd + 1] == '\\') {
      int filterEnd = indexOf(data, seedEnd + 1, length, (byte) 0);
      filter = new String(data, seedEnd + 1, (filterEnd < 0 ? length : filterEnd) - seedEnd - 1, StandardCharsets.ISO_8859_1);
    }
    return page(directory, seed, ValveFilter.parse(filter));
  }

  private static byte[] page(ServerDirectory directory, InetSocketAddress seed, ValveFilter filter) {
    List<ListedServer> all = directory.servers(GameProtocol.GAME_PROTOCOL_A2S).stream()
        .filter(ListedServer::ipv4)
        .filter(s -> filter.test(s.info()))
        .sorted(Comparator.comparingLong(ListedServer::order))
        .toList();
    long after = seed.getAddress().isAnyLocalAddress() && seed.getPort() == 0
        ? -1
        : new ListedServer(seed, null).order();
    ByteArrayOutputStream out = new ByteArrayOutputStream(6 + (PAGE + 1) * 6);
    out.writeBytes(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x66, 0x0a});
    int n = 0;
    boolean more = false;
    for (ListedServer s : all) {
      if (s.order() <= after) continue;
      if (n == PAGE) {
        more = true;
        break;
      }
      out.writeBytes(s.address().getAddress().getAddress());
      out.write(s.address().getPort() >> 8);
      out.write(s.address().getPort());
      n++;
    }
    if (!more) out.writeBytes(new byte[6]);
    return out.toByteArray();
  }

  private static InetSocketAddress parseSeed(String s) {
    String seed = s.replaceFirst(":(\\d{1,5})[^:]*$", ":$1"); // qstat appends a stray byte to the port
    try {
      Endpoints.HostPort hp = Endpoints.hostPort(seed, -1);
      InetAddress ip = Endpoints.literal(hp.host());
      return ip instanceof Inet4Address ? new InetSocketAddress(ip, hp.port()) : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static int indexOf(byte[] a, int from, int to, byte b) {
    for (int i = from; i < to; i++) if (a[i] == b) return i;
    return -1;
  }

  @Override
  public void close() {
    closed = true;
    socket.close();
    try {
      thread.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
