package dev.reed.coordinator.frontend;

import dev.reed.probe.master.ValveFilter;
import dev.reed.probe.master.ValveMasterCodec;
import dev.reed.proto.v1.GameProtocol;
import java.io.IOException;
import java.net.InetSocketAddress;
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
  /** One reply packet that satisfies every client seen (docs/protocols.md). */
  public static final int PAGE = 230;

  /** Counters for metrics and tests. */
  public record Counters(long requests, long malformed) {}

  private final ServerDirectory directory;
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong malformed = new AtomicLong();
  private final DatagramLoop loop;

  private ValveMasterFrontEnd(InetSocketAddress bind, ServerDirectory directory) throws IOException {
    this.directory = directory;
    this.loop = new DatagramLoop("valve-master", bind, 1500);
  }

  public static ValveMasterFrontEnd start(InetSocketAddress bind, ServerDirectory directory) throws IOException {
    ValveMasterFrontEnd m = new ValveMasterFrontEnd(bind, directory);
    m.loop.start(m::handle, e -> m.malformed.incrementAndGet());
    log.info("valve master front end listening on udp {}", m.localAddress());
    return m;
  }

  public InetSocketAddress localAddress() {
    return loop.localAddress();
  }

  public Counters counters() {
    return new Counters(requests.get(), malformed.get());
  }

  private void handle(InetSocketAddress from, byte[] data, int length) throws IOException {
    byte[] reply = answer(data, length);
    if (reply == null) {
      malformed.incrementAndGet();
      return;
    }
    requests.incrementAndGet();
    loop.send(from, reply);
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
    loop.close();
  }
}
