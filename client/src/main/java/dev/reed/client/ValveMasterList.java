package dev.reed.client;

import dev.reed.proto.v1.GameProtocol;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Fetches a Valve master list (Master Server Query Protocol): request
 * {@code 31 FF "seed" 00 filter 00}, reply {@code FF FF FF FF 66 0A} + 6-byte entries; page with
 * the last address as the next seed until the terminator {@code 0.0.0.0:0}.
 */
final class ValveMasterList implements ServerListSource {
  private static final int MAX_PAGES = 1000;

  private final InetSocketAddress master;
  private final String filter;

  ValveMasterList(InetSocketAddress master, String filter) {
    if (master.isUnresolved()) throw new IllegalArgumentException("unresolved master address: " + master);
    this.master = master;
    this.filter = filter == null ? "" : filter;
  }

  @Override
  public String describe() {
    return "valve master " + master.getAddress().getHostAddress() + ":" + master.getPort();
  }

  @Override
  public List<ListedServer> fetch(Duration deadline) {
    long end = System.nanoTime() + deadline.toNanos();
    Set<ListedServer> servers = new LinkedHashSet<>();
    String seed = "0.0.0.0:0";
    try (DatagramSocket socket = new DatagramSocket()) {
      socket.connect(master);
      byte[] data = new byte[65536];
      for (int page = 0; page < MAX_PAGES; page++) {
        byte[] req = request(seed);
        socket.send(new DatagramPacket(req, req.length));
        ByteBuffer buf = receiveReply(socket, data, end, servers.size(), deadline);
        String last = null;
        boolean done = false;
        while (buf.remaining() >= 6) {
          byte[] ip = new byte[4];
          buf.get(ip);
          int port = buf.getShort() & 0xFFFF;
          InetAddress a = InetAddress.getByAddress(ip);
          if (a.isAnyLocalAddress() && port == 0) {
            done = true; // terminator
            break;
          }
          if (port != 0) servers.add(new ListedServer(new InetSocketAddress(a, port), GameProtocol.GAME_PROTOCOL_A2S));
          last = a.getHostAddress() + ":" + port;
        }
        if (done || last == null) return List.copyOf(servers);
        seed = last;
      }
      return List.copyOf(servers);
    } catch (UnknownHostException impossible) {
      throw new AssertionError(impossible);
    } catch (IOException e) {
      throw new ReedClientException(ReedClientException.Kind.SERVER_LIST_FAILED, describe() + ": " + e.getMessage(), e);
    }
  }

  /** The next master reply (skipping stray packets), positioned after its 6-byte header. */
  private ByteBuffer receiveReply(DatagramSocket socket, byte[] data, long end, int soFar, Duration deadline)
      throws IOException {
    while (true) {
      long wait = end - System.nanoTime();
      if (wait < 1_000_000) {
        throw new ReedClientException(ReedClientException.Kind.SERVER_LIST_FAILED,
            describe() + " did not finish the list within " + deadline.toMillis() + " ms (" + soFar + " servers so far)");
      }
      socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, wait / 1_000_000));
      DatagramPacket packet = new DatagramPacket(data, data.length);
      try {
        socket.receive(packet);
      } catch (SocketTimeoutException timeout) {
        continue; // the loop head reports the deadline
      }
      ByteBuffer buf = ByteBuffer.wrap(data, 0, packet.getLength()).slice();
      if (buf.remaining() >= 6 && buf.getInt() == -1 && buf.get() == 0x66 && buf.get() == 0x0A) return buf;
    }
  }

  private byte[] request(String seed) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x31);
    out.write(0xFF);
    out.writeBytes(seed.getBytes(StandardCharsets.US_ASCII));
    out.write(0);
    out.writeBytes(filter.getBytes(StandardCharsets.US_ASCII));
    out.write(0);
    return out.toByteArray();
  }
}
