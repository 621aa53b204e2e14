package dev.reed.probe.bench;

import dev.reed.probe.a2s.A2sCodec;
import dev.reed.probe.a2s.A2sRequest;
import dev.reed.probe.packet.MalformedPacketException;
import dev.reed.probe.quake3.Quake3Codec;
import dev.reed.proto.v1.ServerInfo;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * Many emulated game servers on loopback served by one selector thread (the load generator's
 * far side; the product responder has a thread per socket, too many for thousands of targets).
 * Each socket answers Quake3 getinfo (echoing the challenge) and A2S_INFO (with a fixed
 * challenge), after its own fixed delay. For each socket it records, in send order, how long
 * each reply was actually held (receive to send, same {@code System.nanoTime} clock as the
 * prober): the ground truth the measured RTTs are compared with.
 */
final class LoopbackServers implements AutoCloseable {
  private static final ServerInfo INFO = ServerInfo.newBuilder().setName("bench").setMap("oa_dm1").setGame("baseoa")
      .setPlayers(4).setMaxPlayers(16).setVersion("71").setGameType("0").build();
  private static final int CHALLENGE = 0x5EED_CAFE;

  private record Pending(long due, long received, int server, byte[] reply, SocketAddress to) {}

  private final List<DatagramChannel> channels = new ArrayList<>();
  private final long[] delayNanos;
  private final long[][] holds;
  private final int[] holdCount;
  private final Selector selector;
  private final Thread io;
  private final Thread timer;
  private final ConcurrentLinkedQueue<Pending> handoff = new ConcurrentLinkedQueue<>();
  private volatile boolean closed;

  LoopbackServers(long[] delayNanos, int maxHoldsPerServer) throws IOException {
    this.delayNanos = delayNanos.clone();
    this.holds = new long[delayNanos.length][maxHoldsPerServer];
    this.holdCount = new int[delayNanos.length];
    this.selector = Selector.open();
    for (int i = 0; i < delayNanos.length; i++) {
      DatagramChannel ch = DatagramChannel.open();
      ch.setOption(StandardSocketOptions.SO_RCVBUF, 1 << 16);
      ch.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      ch.configureBlocking(false);
      ch.register(selector, SelectionKey.OP_READ, i);
      channels.add(ch);
    }
    this.io = Thread.ofPlatform().daemon().name("bench-servers").start(this::serve);
    this.timer = Thread.ofPlatform().daemon().name("bench-servers-delay").start(this::delayLoop);
  }

  List<InetSocketAddress> addresses() throws IOException {
    List<InetSocketAddress> out = new ArrayList<>();
    for (DatagramChannel ch : channels) {
      out.add((InetSocketAddress) ch.getLocalAddress());
    }
    return out;
  }

  /** Reply hold times of server {@code i} in send order (read after the run has quiesced). */
  long[] holds(int i) {
    return java.util.Arrays.copyOf(holds[i], holdCount[i]);
  }

  private void serve() {
    ByteBuffer buf = ByteBuffer.allocateDirect(2048);
    while (!closed) {
      try {
        selector.select(100);
        for (SelectionKey key : selector.selectedKeys()) {
          DatagramChannel ch = (DatagramChannel) key.channel();
          int server = (Integer) key.attachment();
          SocketAddress from;
          while (true) {
            buf.clear();
            from = ch.receive(buf);
            long received = System.nanoTime();
            if (from == null) {
              break;
            }
            buf.flip();
            byte[] reply = answer(buf);
            if (reply == null) {
              continue;
            }
            if (delayNanos[server] == 0) {
              record(server, System.nanoTime() - received);
              ch.send(ByteBuffer.wrap(reply), from);
            } else {
              handoff.add(new Pending(received + delayNanos[server], received, server, reply, from));
              LockSupport.unpark(timer);
            }
          }
        }
        selector.selectedKeys().clear();
      } catch (IOException e) {
        if (!closed) {
          throw new IllegalStateException(e);
        }
      }
    }
  }

  private void delayLoop() {
    PriorityQueue<Pending> queue = new PriorityQueue<>((a, b) -> Long.compare(a.due, b.due));
    while (!closed) {
      Pending p;
      while ((p = handoff.poll()) != null) {
        queue.add(p);
      }
      long now = System.nanoTime();
      while (!queue.isEmpty() && queue.peek().due - now <= 0) {
        Pending due = queue.poll();
        long sending = System.nanoTime(); // the hold ends where the send starts: preemption after it is not hold
        try {
          channels.get(due.server).send(ByteBuffer.wrap(due.reply), due.to);
        } catch (IOException e) {
          if (!closed) {
            throw new IllegalStateException(e);
          }
        }
        record(due.server, sending - due.received);
        now = System.nanoTime();
      }
      LockSupport.parkNanos(queue.isEmpty() ? 1_000_000 : queue.peek().due - now);
    }
  }

  private synchronized void record(int server, long hold) {
    if (holdCount[server] < holds[server].length) {
      holds[server][holdCount[server]++] = hold;
    }
  }

  private static byte[] answer(ByteBuffer request) {
    try {
      int type = request.remaining() > 4 ? request.get(request.position() + 4) : 0;
      if (type == 'T') {
        A2sRequest r = A2sCodec.decodeRequest(request);
        return r.challenged() && r.challenge() == CHALLENGE ? A2sCodec.encodeInfo(INFO, 0)
            : A2sCodec.encodeChallenge(CHALLENGE);
      }
      return Quake3Codec.encodeInfoResponse(INFO, Quake3Codec.decodeRequest(request).challenge());
    } catch (MalformedPacketException e) {
      return null;
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    LockSupport.unpark(timer);
    selector.wakeup();
    try {
      io.join(2000);
      timer.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    selector.close();
    for (DatagramChannel ch : channels) {
      ch.close();
    }
  }
}
