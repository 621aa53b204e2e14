package dev.reed.client;

import dev.reed.proto.v1.GameProtocol;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Fetches a Quake3-protocol master list (ioquake3 {@code getservers}; reply
 * {@code getserversResponse} then {@code \}+IPv4+port entries, ending {@code \EOT}). Replies may
 * span several packets; the list is complete at EOT, or when no packet came for a short while
 * after the first (some masters omit EOT).
 */
final class Quake3MasterList implements ServerListSource {
  private static final byte[] RESPONSE = "getserversResponse".getBytes(StandardCharsets.US_ASCII);
  private static final Duration IDLE_AFTER_FIRST = Duration.ofMillis(300);

  private final InetSocketAddress master;
  private final int protocol;

  Quake3MasterList(InetSocketAddress master, int protocol) {
    if (master.isUnresolved()) throw new IllegalArgumentException("unresolved master address: " + master);
    if (protocol < 1) throw new IllegalArgumentException("protocol must be >= 1: " + protocol);
    this.master = master;
    this.protocol = protocol;
  }

  @Override
  public String describe() {
    return "quake3 master " + master.getAddress().getHostAddress() + ":" + master.getPort();
  }

  @Override
  public List<ListedServer> fetch(Duration deadline) {
    long end = System.nanoTime() + deadline.toNanos();
    Set<ListedServer> servers = new LinkedHashSet<>();
    try (DatagramSocket socket = new DatagramSocket()) {
      socket.connect(master);
      byte[] req = request();
      socket.send(new DatagramPacket(req, req.length));
      byte[] data = new byte[65536];
      boolean gotAny = false;
      while (true) {
        long wait = end - System.nanoTime();
        if (gotAny) wait = Math.min(wait, IDLE_AFTER_FIRST.toNanos());
        if (wait < 1_000_000) break;
        DatagramPacket packet = new DatagramPacket(data, data.length);
        socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, wait / 1_000_000));
        try {
          socket.receive(packet);
        } catch (SocketTimeoutException timeout) {
          break;
        }
        ByteBuffer buf = ByteBuffer.wrap(data, 0, packet.getLength()).slice();
        if (!isResponse(buf)) continue; // stray packet: not ours
        gotAny = true;
        if (parseEntries(buf, servers)) break;
      }
      if (!gotAny) {
        throw new ReedClientException(ReedClientException.Kind.SERVER_LIST_FAILED,
            describe() + " did not answer getservers within " + deadline.toMillis() + " ms");
      }
    } catch (IOException e) {
      throw new ReedClientException(ReedClientException.Kind.SERVER_LIST_FAILED,
          describe() + ": " + e.getMessage(), e);
    }
    return List.copyOf(servers);
  }

  private byte[] request() {
    byte[] text = ("getservers " + protocol + " empty full").getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[4 + text.length];
    out[0] = out[1] = out[2] = out[3] = (byte) 0xFF;
    System.arraycopy(text, 0, out, 4, text.length);
    return out;
  }

  private static boolean isResponse(ByteBuffer b) {
    if (b.remaining() < 4 + RESPONSE.length) return false;
    for (int i = 0; i < 4; i++) if (b.get(i) != (byte) 0xFF) return false;
    for (int i = 0; i < RESPONSE.length; i++) if (b.get(4 + i) != RESPONSE[i]) return false;
    b.position(4 + RESPONSE.length);
    return true;
  }

  /** Parses {@code \}-separated 6-byte entries; true at EOT. Malformed tails are ignored. */
  static boolean parseEntries(ByteBuffer b, Set<ListedServer> out) {
    while (b.remaining() >= 1) {
      if (b.get() != '\\') continue; // skip separators/padding some masters emit (e.g. '\n')
      if (b.remaining() >= 3 && b.get(b.position()) == 'E' && b.get(b.position() + 1) == 'O'
          && b.get(b.position() + 2) == 'T') {
        return true;
      }
      if (b.remaining() < 6) return false;
      byte[] ip = new byte[4];
      b.get(ip);
      int port = ((b.get() & 0xFF) << 8) | (b.get() & 0xFF);
      if (port == 0) continue;
      try {
        out.add(new ListedServer(new InetSocketAddress(InetAddress.getByAddress(ip), port),
            GameProtocol.GAME_PROTOCOL_QUAKE3));
      } catch (UnknownHostException impossible) {
        throw new AssertionError(impossible);
      }
    }
    return false;
  }
}
