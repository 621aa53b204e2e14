package dev.reed.cli.demo;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A WebSocket server that accepts the page's connection (RFC 6455 handshake) and then misbehaves
 * like a broken beacon: never echoes, or answers garbage. Written on a bare socket because no
 * working beacon library would misbehave on purpose.
 */
final class MisbehavingBeacon implements AutoCloseable {
  private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

  enum Mode {
    /** Accepts and reads every frame, answers none. */
    SILENT,
    /** Answers every frame with a text frame that is not its echo. */
    GARBAGE
  }

  private final ServerSocket server;
  private final Mode mode;
  private final List<Socket> open = new CopyOnWriteArrayList<>();
  private final Thread acceptor;

  MisbehavingBeacon(Mode mode) throws IOException {
    this.mode = mode;
    this.server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    acceptor = Thread.ofVirtual().name("misbehaving-beacon-" + mode).start(this::acceptLoop);
  }

  String url() {
    return "ws://127.0.0.1:" + server.getLocalPort() + "/";
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        open.add(s);
        Thread.ofVirtual().start(() -> serve(s));
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void serve(Socket s) {
    try (s) {
      InputStream in = s.getInputStream();
      OutputStream out = s.getOutputStream();
      String key = null;
      for (String line = readLine(in); line != null && !line.isEmpty(); line = readLine(in)) {
        int colon = line.indexOf(':');
        if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("Sec-WebSocket-Key")) key = line.substring(colon + 1).trim();
      }
      if (key == null) return;
      String accept = Base64.getEncoder().encodeToString(
          MessageDigest.getInstance("SHA-1").digest((key + GUID).getBytes(StandardCharsets.US_ASCII)));
      out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " + accept
          + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      DataInputStream frames = new DataInputStream(in);
      while (true) {
        int b0 = frames.readUnsignedByte();
        int b1 = frames.readUnsignedByte();
        long len = b1 & 0x7f;
        if (len == 126) len = frames.readUnsignedShort();
        else if (len == 127) len = frames.readLong();
        byte[] mask = new byte[4];
        if ((b1 & 0x80) != 0) frames.readFully(mask);
        byte[] payload = new byte[(int) Math.min(len, 1 << 16)];
        frames.readFully(payload);
        int opcode = b0 & 0x0f;
        if (opcode == 8) {
          out.write(new byte[] {(byte) 0x88, 0});
          out.flush();
          return;
        }
        if (mode == Mode.GARBAGE && (opcode == 1 || opcode == 2)) {
          byte[] garbage = "garbage, not your ping".getBytes(StandardCharsets.UTF_8);
          out.write(0x81);
          out.write(garbage.length);
          out.write(garbage);
          out.flush();
        }
      }
    } catch (IOException | NoSuchAlgorithmException e) {
      // the page closed the connection, or the test stopped the server
    } finally {
      open.remove(s);
    }
  }

  private static String readLine(InputStream in) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int c = in.read(); c >= 0; c = in.read()) {
      if (c == '\n') return sb.toString().strip();
      sb.append((char) c);
    }
    return sb.isEmpty() ? null : sb.toString();
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket s : open) s.close();
    acceptor.interrupt();
  }
}
