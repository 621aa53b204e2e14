package dev.reed.coordinator.frontend;

import dev.reed.probe.master.ValveFilter;
import dev.reed.probe.master.ValveMasterCodec;
import dev.reed.proto.v1.GameProtocol;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
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
public final class ValveMasterFrontEnd implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ValveMasterFrontEnd.class);
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

  private ValveMasterFrontEnd(DatagramSocket socket, ServerDirectory directory) {
    this.socket = socket;
    this.directory = directory;
    this.thread = Thread.ofPlatform().name("valve-master").daemon().start(this::run);
  }

  public static ValveMasterFrontEnd start(InetSocketAddress bind, ServerDirectory directory) throws IOException {
    ValveMasterFrontEnd m = new ValveMasterFrontEnd(new DatagramSocket(bind), directory);
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
    ValveMasterCodec.Request request = ValveMasterCodec.decodeRequest(data, length);
    if (request == null) return null;
    ValveFilter filter = ValveFilter.parse(request.filter());
    long after = request.firstPage() ? -1 : new ListedServer(request.seed(), null).order();
    List<InetSocketAddress> page = directory.servers(GameProtocol.GAME_PROTOCOL_A2S).stream()
        .filter(ListedServer::ipv4)
        .filter(s -> filter.test(s.info()))
        .sorted(Comparator.comparingLong(ListedServer::order))
        .dropWhile(s -> s.order() <= after)
        .limit(PAGE + 1L)
        .map(ListedServer::address)
        .toList();
    boolean last = page.size() <= PAGE;
    return ValveMasterCodec.encodeReply(last ? page : page.subList(0, PAGE), last);
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
