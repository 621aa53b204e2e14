package dev.reed.probe.master;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Fetches the whole list of a Valve or Quake3 master over UDP, politely: one request at a time, a
 * pause between Valve pages, a cap on pages and a wait limit per reply. Packets that are not the
 * master's reply (stray, other peers) are skipped. Used by the SDK's traditional list and the
 * coordinator's crawler.
 */
public final class MasterListClient {
  private static final int MAX_DATAGRAM = 65_536;

  /**
   * How long to wait and how much to ask.
   *
   * @param replyTimeout longest wait for one reply
   * @param quietEnd a Quake3 list is complete when no packet came for this long after the first
   *     (some masters omit {@code \EOT})
   * @param pagePause pause between Valve page requests
   * @param maxPages most Valve pages requested, or Quake3 packets read
   * @param deadline the whole fetch
   */
  public record Settings(Duration replyTimeout, Duration quietEnd, Duration pagePause, int maxPages, Duration deadline) {
    public Settings {
      if (maxPages < 1) throw new IllegalArgumentException("maxPages must be >= 1: " + maxPages);
    }
  }

  /** The master stopped answering before its list ended; {@link #partial()} is what it did list. */
  public static final class IncompleteListException extends IOException {
    private final transient List<InetSocketAddress> partial;

    IncompleteListException(String message, Set<InetSocketAddress> partial) {
      super(message);
      this.partial = List.copyOf(partial);
    }

    /** The servers received before the master fell silent. */
    public List<InetSocketAddress> partial() {
      return partial;
    }
  }

  private final Settings settings;

  public MasterListClient(Settings settings) {
    this.settings = settings;
  }

  /**
   * A Valve master's list for {@code filter} ("" = all), paged with the last address as the next
   * seed until the terminator.
   *
   * @throws IncompleteListException a page did not come within the reply timeout or the deadline
   */
  public List<InetSocketAddress> fetchValve(InetSocketAddress master, String filter) throws IOException {
    long end = System.nanoTime() + settings.deadline().toNanos();
    Set<InetSocketAddress> servers = new LinkedHashSet<>();
    InetSocketAddress seed = ValveMasterCodec.FIRST_SEED;
    try (DatagramSocket socket = open(master)) {
      byte[] data = new byte[MAX_DATAGRAM];
      for (int page = 0; page < settings.maxPages(); page++) {
        if (page > 0) pause();
        byte[] req = ValveMasterCodec.encodeRequest(seed, filter);
        socket.send(new DatagramPacket(req, req.length));
        ValveMasterCodec.Page reply = null;
        while (reply == null) {
          ByteBuffer packet = receive(socket, data, Math.min(settings.replyTimeout().toNanos(), end - System.nanoTime()));
          if (packet == null) {
            throw new IncompleteListException("did not finish the list within " + settings.deadline().toMillis()
                + " ms (" + servers.size() + " servers so far)", servers);
          }
          reply = ValveMasterCodec.decodeReply(packet);
        }
        servers.addAll(reply.servers());
        if (reply.nextSeed() == null) break;
        seed = reply.nextSeed();
      }
    }
    return List.copyOf(servers);
  }

  /**
   * A Quake3 master's list for {@code protocol}: complete at {@code \EOT}, after
   * {@link Settings#quietEnd} without a packet, at the deadline, or after
   * {@link Settings#maxPages} packets.
   *
   * @throws IncompleteListException no response at all within the reply timeout or the deadline
   */
  public List<InetSocketAddress> fetchQuake3(InetSocketAddress master, int protocol) throws IOException {
    long end = System.nanoTime() + settings.deadline().toNanos();
    Set<InetSocketAddress> servers = new LinkedHashSet<>();
    try (DatagramSocket socket = open(master)) {
      byte[] req = Quake3MasterCodec.encodeGetServers(protocol);
      socket.send(new DatagramPacket(req, req.length));
      byte[] data = new byte[MAX_DATAGRAM];
      int packets = 0;
      while (packets < settings.maxPages()) {
        Duration wait = packets == 0 ? settings.replyTimeout() : settings.quietEnd();
        ByteBuffer packet = receive(socket, data, Math.min(wait.toNanos(), end - System.nanoTime()));
        if (packet == null) break;
        Quake3MasterCodec.Response response = Quake3MasterCodec.decodeResponse(packet);
        if (response == null) continue;
        packets++;
        servers.addAll(response.servers());
        if (response.last()) break;
      }
      if (packets == 0) {
        throw new IncompleteListException("did not answer getservers within "
            + Math.min(settings.replyTimeout().toMillis(), settings.deadline().toMillis()) + " ms", servers);
      }
    }
    return List.copyOf(servers);
  }

  private static DatagramSocket open(InetSocketAddress master) throws IOException {
    if (master.isUnresolved()) throw new IllegalArgumentException("unresolved master address: " + master);
    DatagramSocket socket = new DatagramSocket();
    socket.connect(master); // the kernel drops datagrams from anyone else
    return socket;
  }

  /** The next datagram within {@code waitNanos}, or null when none came. */
  private static ByteBuffer receive(DatagramSocket socket, byte[] data, long waitNanos) throws IOException {
    if (waitNanos < 1_000_000) return null;
    socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, waitNanos / 1_000_000));
    DatagramPacket packet = new DatagramPacket(data, data.length);
    try {
      socket.receive(packet);
    } catch (SocketTimeoutException timeout) {
      return null;
    }
    return ByteBuffer.wrap(data, 0, packet.getLength());
  }

  private void pause() throws InterruptedIOException {
    if (settings.pagePause().isZero()) return;
    try {
      Thread.sleep(settings.pagePause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted between master pages");
    }
  }
}
