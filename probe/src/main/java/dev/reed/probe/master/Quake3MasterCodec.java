package dev.reed.probe.master;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The Quake III master list (ioquake3 {@code cl_main.c}, dpmaster {@code techinfo.txt};
 * docs/protocols.md): request {@code FF FF FF FF "getservers <protocol> [empty] [full] ..."} (or the
 * DarkPlaces {@code getservers <game> <protocol> ...}), reply one or more
 * {@code FF FF FF FF "getserversResponse"} packets of {@code \} + 4-byte IPv4 + 2-byte port
 * (big-endian) entries, the last ending {@code \EOT\0\0\0}. Heartbeats and their
 * {@code getinfo} check are plain Quake3 queries ({@link dev.reed.probe.quake3.Quake3Codec}).
 *
 * <p>Client side: {@link #encodeGetServers}, {@link #decodeResponse}. Server side:
 * {@link #decodeGetServers}, {@link #encodeResponses}. Stateless and thread-safe.
 */
public final class Quake3MasterCodec {
  /** Quake3 1.32's protocol number, what generic browsers ({@code quakestat -q3m}) ask for. */
  public static final int QUAKE3_PROTOCOL = 68;

  private static final byte[] OOB = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
  private static final byte[] RESPONSE = "getserversResponse".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] EOT = "\\EOT\0\0\0".getBytes(StandardCharsets.US_ASCII);

  /**
   * A decoded {@code getservers} request.
   *
   * @param game the DarkPlaces game name, or null for the Quake3 form
   * @param protocol the protocol number as sent, or null if none
   * @param empty list empty servers too
   * @param full list full servers too
   */
  public record GetServers(String game, String protocol, boolean empty, boolean full) {}

  /**
   * One decoded response packet.
   *
   * @param servers the listed addresses, in order (port 0 entries skipped)
   * @param last true if the packet ended with {@code \EOT}
   */
  public record Response(List<InetSocketAddress> servers, boolean last) {
    public Response {
      servers = List.copyOf(servers);
    }
  }

  private Quake3MasterCodec() {}

  /** {@code FF FF FF FF "getservers <protocol> empty full"}: every server of that protocol. */
  public static byte[] encodeGetServers(int protocol) {
    if (protocol < 1) throw new IllegalArgumentException("protocol must be >= 1: " + protocol);
    return oob(("getservers " + protocol + " empty full").getBytes(StandardCharsets.US_ASCII));
  }

  /**
   * The {@code getservers} command line (the text after the {@code FF FF FF FF} header, up to its
   * end of line), or null if it is not one. Gametype and ipv4/ipv6 keywords are ignored.
   */
  public static GetServers decodeGetServers(String command) {
    String[] args = command.strip().split("\\s+");
    if (!args[0].equalsIgnoreCase("getservers")) return null;
    String game = null;
    String protocol = null;
    boolean empty = false;
    boolean full = false;
    int i = 1;
    if (args.length > 1 && !args[1].chars().allMatch(Character::isDigit)) {
      game = args[1];
      i = 2;
    }
    if (args.length > i) protocol = args[i++];
    for (; i < args.length; i++) {
      switch (args[i].toLowerCase(Locale.ROOT)) {
        case "empty" -> empty = true;
        case "full" -> full = true;
        default -> { }
      }
    }
    return new GetServers(game, protocol, empty, full);
  }

  /**
   * The response packets listing {@code servers} (IPv4 only), each at most {@code maxPacket}
   * bytes; the last one ends with {@code \EOT}. An empty list is one packet with just EOT.
   */
  public static List<byte[]> encodeResponses(List<InetSocketAddress> servers, int maxPacket) {
    int perPacket = (maxPacket - OOB.length - RESPONSE.length - EOT.length) / (1 + Ipv4Entry.SIZE);
    if (perPacket < 1) throw new IllegalArgumentException("packet too small: " + maxPacket);
    List<byte[]> packets = new ArrayList<>();
    int sent = 0;
    do {
      ByteArrayOutputStream out = new ByteArrayOutputStream(maxPacket);
      out.writeBytes(OOB);
      out.writeBytes(RESPONSE);
      int n = Math.min(perPacket, servers.size() - sent);
      for (InetSocketAddress s : servers.subList(sent, sent + n)) {
        out.write('\\');
        Ipv4Entry.write(out, s);
      }
      sent += n;
      if (sent == servers.size()) out.writeBytes(EOT);
      packets.add(out.toByteArray());
    } while (sent < servers.size());
    return packets;
  }

  /**
   * The entries of one response packet (position to limit, not modified), or null if it is not a
   * {@code getserversResponse}. Bytes between entries other than {@code \} are skipped (some
   * masters pad with newlines); a truncated last entry is ignored.
   */
  public static Response decodeResponse(ByteBuffer packet) {
    ByteBuffer b = packet.slice();
    if (b.remaining() < OOB.length + RESPONSE.length) return null;
    for (byte h : OOB) if (b.get() != h) return null;
    for (byte h : RESPONSE) if (b.get() != h) return null;
    List<InetSocketAddress> servers = new ArrayList<>();
    while (b.hasRemaining()) {
      if (b.get() != '\\') continue;
      if (b.remaining() >= 3 && b.get(b.position()) == 'E' && b.get(b.position() + 1) == 'O'
          && b.get(b.position() + 2) == 'T') {
        return new Response(servers, true);
      }
      if (b.remaining() < Ipv4Entry.SIZE) break;
      InetSocketAddress entry = Ipv4Entry.read(b);
      if (entry.getPort() != 0) servers.add(entry);
    }
    return new Response(servers, false);
  }

  private static byte[] oob(byte[] text) {
    byte[] out = new byte[OOB.length + text.length];
    System.arraycopy(OOB, 0, out, 0, OOB.length);
    System.arraycopy(text, 0, out, OOB.length, text.length);
    return out;
  }
}
