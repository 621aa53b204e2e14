package dev.reed.coordinator.frontend;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A front end's UDP socket and the one thread that hands each datagram to its handler. A packet
 * whose handling throws is dropped and reported to {@code dropped}; the loop ends when the socket
 * closes. Bound at construction, started once the front end around it is fully built.
 */
final class DatagramLoop implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DatagramLoop.class);

  /** Handles one datagram ({@code data[0, length)} is only valid during the call). */
  @FunctionalInterface
  interface Handler {
    void handle(InetSocketAddress from, byte[] data, int length) throws IOException;
  }

  private final String name;
  private final int maxPacket;
  private final DatagramSocket socket;
  private Thread thread;
  private volatile boolean closed;

  DatagramLoop(String name, InetSocketAddress bind, int maxPacket) throws IOException {
    this.name = name;
    this.maxPacket = maxPacket;
    this.socket = new DatagramSocket(bind);
  }

  synchronized void start(Handler handler, Consumer<Exception> dropped) {
    if (thread != null) throw new IllegalStateException(name + " already started");
    thread = Thread.ofPlatform().name(name).daemon().start(() -> run(handler, dropped));
  }

  InetSocketAddress localAddress() {
    return (InetSocketAddress) socket.getLocalSocketAddress();
  }

  void send(InetSocketAddress to, byte[] packet) throws IOException {
    socket.send(new DatagramPacket(packet, packet.length, to));
  }

  private void run(Handler handler, Consumer<Exception> dropped) {
    byte[] buf = new byte[maxPacket];
    DatagramPacket p = new DatagramPacket(buf, buf.length);
    while (!closed) {
      try {
        p.setLength(buf.length);
        socket.receive(p);
        handler.handle((InetSocketAddress) p.getSocketAddress(), buf, p.getLength());
      } catch (SocketException e) {
        if (!closed) log.warn("{} socket failed: {}", name, e.toString());
        return;
      } catch (IOException | RuntimeException e) {
        dropped.accept(e);
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    socket.close();
    Thread t;
    synchronized (this) {
      t = thread;
    }
    if (t == null) return;
    try {
      t.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
