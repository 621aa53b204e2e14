package dev.reed.probe;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.Arrays;

/** A plain UDP socket on 127.0.0.1 for tests: a raw client, a scripted server, or a silent target. */
public final class UdpPeer implements AutoCloseable {
  /** A received datagram and its source. */
  public record Datagram(byte[] data, InetSocketAddress from) {}

  private final DatagramSocket socket;

  public UdpPeer() throws IOException {
    this.socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
  }

  public InetSocketAddress address() {
    return (InetSocketAddress) socket.getLocalSocketAddress();
  }

  public void send(byte[] data, InetSocketAddress to) throws IOException {
    socket.send(new DatagramPacket(data, data.length, to));
  }

  /** The next datagram, or null after {@code timeoutMillis}. */
  public Datagram receive(int timeoutMillis) throws IOException {
    byte[] buf = new byte[65536];
    DatagramPacket p = new DatagramPacket(buf, buf.length);
    socket.setSoTimeout(timeoutMillis);
    try {
      socket.receive(p);
    } catch (SocketTimeoutException e) {
      return null;
    }
    return new Datagram(Arrays.copyOf(buf, p.getLength()), (InetSocketAddress) p.getSocketAddress());
  }

  @Override
  public void close() {
    socket.close();
  }
}
