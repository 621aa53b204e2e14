package dev.reed.agent.spool;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bounded, append-only, on-disk queue of record batches: the agent's write-ahead log between a
 * probe round and Kafka. Every batch is appended here first and leaves only when the broker has
 * acknowledged all of its records ({@link #acknowledge}), so a broker outage or an agent crash
 * loses nothing (docs/design.md section 6: "an agent that cannot reach Kafka spools to disk and
 * replays").
 *
 * <p>Layout: segment files {@code segment-<n>.spool}, each a sequence of entries
 * {@code [int length][int CRC32C of payload][payload]} (big-endian), plus a {@code head} file
 * holding the position of the oldest unacknowledged entry, replaced atomically on every
 * acknowledgement. Segments wholly before the head are deleted. At start the segments are scanned
 * from the head: a torn last entry (crash mid-write) is truncated, an entry whose CRC does not
 * match is skipped; both are logged and counted.
 *
 * <p>Bound: the unacknowledged bytes never exceed {@code maxBytes}. Appending to a full spool
 * drops the oldest batches first (they are the least useful to the coordinator's windows), counts
 * them in {@link SpoolStats} and logs them; this is the only way the spool loses data.
 *
 * <p>Thread-safe: the round appends while the publisher peeks and acknowledges.
 */
public final class Spool implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Spool.class);
  private static final Pattern SEGMENT = Pattern.compile("segment-(\\d{20})\\.spool");
  private static final int HEADER = 8;
  private static final String HEAD_FILE = "head";

  private record Ref(long segment, long offset, int length, int records) {}

  private final Path dir;
  private final long maxBytes;
  private final long segmentBytes;
  private final boolean fsync;
  private final ArrayDeque<Ref> entries = new ArrayDeque<>();
  private long liveBytes;
  private long liveRecords;
  private long droppedBatches;
  private long droppedRecords;
  private long corruptEntries;
  private long preexistingRecords;
  private long appendedRecords;
  private long acknowledgedRecords;
  private long activeSegment;
  private long activeSize;
  private FileChannel active;
  private boolean closed;

  private Spool(Path dir, long maxBytes, long segmentBytes, boolean fsync) {
    this.dir = dir;
    this.maxBytes = maxBytes;
    this.segmentBytes = segmentBytes;
    this.fsync = fsync;
  }

  /**
   * Opens (creating if needed) the spool in {@code dir} and recovers what a previous run left.
   *
   * @param maxBytes bound on unacknowledged bytes, >= 1 KiB
   * @param segmentBytes a segment file is closed and a new one started past this size
   * @param fsync force every append and head move to the disk (survives power loss, not just crashes)
   */
  public static Spool open(Path dir, long maxBytes, long segmentBytes, boolean fsync) throws IOException {
    if (maxBytes < 1024) throw new IllegalArgumentException("spool bound must be >= 1024 bytes, got " + maxBytes);
    if (segmentBytes < 1024) throw new IllegalArgumentException("segment size must be >= 1024 bytes, got " + segmentBytes);
    Files.createDirectories(dir);
    Spool s = new Spool(dir, maxBytes, segmentBytes, fsync);
    s.recover();
    return s;
  }

  /**
   * Appends a batch at the tail, dropping the oldest batches first if it would not fit.
   *
   * @return records dropped to make room (0 normally)
   * @throws IllegalArgumentException if the batch alone is larger than the bound
   */
  public synchronized long append(List<SpooledRecord> batch) throws IOException {
    ensureOpen();
    if (batch.isEmpty()) return 0;
    byte[] payload = encode(batch);
    int size = HEADER + payload.length;
    if (size > maxBytes) {
      throw new IllegalArgumentException("batch of " + size + " bytes exceeds the spool bound of " + maxBytes);
    }
    long dropped = 0;
    int droppedNow = 0;
    while (liveBytes + size > maxBytes && !entries.isEmpty()) {
      Ref r = entries.pollFirst();
      liveBytes -= HEADER + r.length;
      liveRecords -= r.records;
      droppedBatches++;
      droppedRecords += r.records;
      dropped += r.records;
      droppedNow++;
    }
    if (droppedNow > 0) {
      moveHead();
      log.warn("spool full ({} bytes bound): dropped the {} oldest batches ({} records) to make room",
          maxBytes, droppedNow, dropped);
    }
    if (active == null || activeSize >= segmentBytes) roll();
    CRC32C crc = new CRC32C();
    crc.update(payload);
    ByteBuffer buf = ByteBuffer.allocate(size);
    buf.putInt(payload.length).putInt((int) crc.getValue()).put(payload).flip();
    long offset = activeSize;
    while (buf.hasRemaining()) active.write(buf);
    if (fsync) active.force(false);
    activeSize += size;
    entries.addLast(new Ref(activeSegment, offset, payload.length, batch.size()));
    liveBytes += size;
    liveRecords += batch.size();
    appendedRecords += batch.size();
    notifyAll();
    return dropped;
  }

  /** The oldest unacknowledged batch, or null if the spool is empty. */
  public synchronized SpoolEntry peek() throws IOException {
    ensureOpen();
    Ref r = entries.peekFirst();
    if (r == null) return null;
    return new SpoolEntry(r.segment, r.offset, decode(read(r)));
  }

  /** Waits up to {@code timeout} for a batch; null if none arrived or the spool was closed. */
  public synchronized SpoolEntry awaitHead(Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (entries.isEmpty() && !closed) {
      long left = deadline - System.nanoTime();
      if (left <= 0) return null;
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return closed ? null : peek();
  }

  /**
   * Removes the head batch after the broker acknowledged it. A batch that is no longer the head
   * (dropped meanwhile because the spool filled up) is ignored.
   */
  public synchronized void acknowledge(SpoolEntry entry) throws IOException {
    ensureOpen();
    Ref r = entries.peekFirst();
    if (r == null || r.segment != entry.segment() || r.offset != entry.offset()) return;
    entries.pollFirst();
    liveBytes -= HEADER + r.length;
    liveRecords -= r.records;
    acknowledgedRecords += r.records;
    moveHead();
    notifyAll();
  }

  /** True when every batch has been acknowledged (or dropped). */
  public synchronized boolean isEmpty() {
    return entries.isEmpty();
  }

  /**
   * Waits until the spool is empty (every batch acknowledged) or the timeout passes.
   *
   * @return true if empty
   */
  public synchronized boolean awaitEmpty(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!entries.isEmpty() && !closed) {
      long left = deadline - System.nanoTime();
      if (left <= 0) return false;
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return entries.isEmpty();
  }

  /**
   * Records ever placed in this spool in this process's view: those recovered at open plus those
   * appended since. A batch's records occupy positions {@code [position before, position after)}
   * of its append, in FIFO order.
   */
  public synchronized long position() {
    return preexistingRecords + appendedRecords;
  }

  /** Records acknowledged (removed after the broker's acknowledgement) since open. */
  public synchronized long acknowledged() {
    return acknowledgedRecords;
  }

  /** Records that left the head since open, acknowledged or dropped: the FIFO position of the head. */
  public synchronized long consumed() {
    return acknowledgedRecords + droppedRecords;
  }

  /**
   * Waits until the head has passed {@code position} (every record before it acknowledged or
   * dropped) or the timeout passes.
   *
   * @return true if it has
   */
  public synchronized boolean awaitConsumed(long position, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (acknowledgedRecords + droppedRecords < position && !closed) {
      long left = deadline - System.nanoTime();
      if (left <= 0) return false;
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return acknowledgedRecords + droppedRecords >= position;
  }

  public synchronized SpoolStats stats() {
    return new SpoolStats(liveBytes, entries.size(), liveRecords, droppedBatches, droppedRecords, corruptEntries);
  }

  public Path directory() {
    return dir;
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) return;
    closed = true;
    notifyAll();
    if (active != null) active.close();
    active = null;
  }

  private void ensureOpen() {
    if (closed) throw new IllegalStateException("spool " + dir + " is closed");
  }

  // ---- disk layout ----

  private Path segmentPath(long n) {
    return dir.resolve(String.format("segment-%020d.spool", n));
  }

  private TreeMap<Long, Path> segments() throws IOException {
    TreeMap<Long, Path> out = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Matcher m = SEGMENT.matcher(p.getFileName().toString());
        if (m.matches()) out.put(Long.parseLong(m.group(1)), p);
      }
    }
    return out;
  }

  private void recover() throws IOException {
    TreeMap<Long, Path> segs = segments();
    long headSeg = segs.isEmpty() ? 0 : segs.firstKey();
    long headOff = 0;
    Path headFile = dir.resolve(HEAD_FILE);
    if (Files.exists(headFile)) {
      String[] parts = Files.readString(headFile, StandardCharsets.US_ASCII).strip().split(" ");
      try {
        headSeg = Long.parseLong(parts[0]);
        headOff = Long.parseLong(parts[1]);
      } catch (RuntimeException e) {
        log.warn("spool head file {} is unreadable ({}); replaying every segment from its start", headFile, e.toString());
      }
    }
    for (var e : segs.entrySet()) {
      long n = e.getKey();
      if (n < headSeg) {
        Files.delete(e.getValue());
        continue;
      }
      scan(n, e.getValue(), n == headSeg ? headOff : 0, n == segs.lastKey());
    }
    long last = segs.isEmpty() ? headSeg : Math.max(headSeg, segs.lastKey());
    activeSegment = last;
    if (Files.exists(segmentPath(last))) {
      active = FileChannel.open(segmentPath(last), StandardOpenOption.WRITE);
      activeSize = active.size();
      active.position(activeSize);
    }
    if (!entries.isEmpty() || corruptEntries > 0) {
      log.info("spool {}: recovered {} batches ({} records, {} bytes) to replay{}", dir, entries.size(), liveRecords,
          liveBytes, corruptEntries > 0 ? ", skipped " + corruptEntries + " damaged entries" : "");
    }
    preexistingRecords = liveRecords;
    moveHead();
  }

  /** Indexes the valid entries of one segment from {@code start}; truncates a torn tail of the last segment. */
  private void scan(long n, Path file, long start, boolean last) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long size = ch.size();
      long pos = Math.min(start, size);
      ByteBuffer header = ByteBuffer.allocate(HEADER);
      while (pos < size) {
        header.clear();
        if (readFully(ch, header, pos) < HEADER) {
          tornTail(ch, file, pos, last, "incomplete entry header");
          return;
        }
        header.flip();
        int length = header.getInt();
        int crc = header.getInt();
        if (length < 4 || length > maxBytes || pos + HEADER + length > size) {
          tornTail(ch, file, pos, last, length < 4 || length > maxBytes ? "implausible entry length " + length : "incomplete entry");
          return;
        }
        ByteBuffer payload = ByteBuffer.allocate(length);
        readFully(ch, payload, pos + HEADER);
        CRC32C c = new CRC32C();
        c.update(payload.array());
        if ((int) c.getValue() != crc) {
          corruptEntries++;
          log.warn("spool {}: entry at byte {} of {} fails its CRC check; skipped", dir, pos, file.getFileName());
        } else {
          int records = ByteBuffer.wrap(payload.array()).getInt();
          entries.addLast(new Ref(n, pos, length, records));
          liveBytes += HEADER + length;
          liveRecords += records;
        }
        pos += HEADER + length;
      }
    }
  }

  private void tornTail(FileChannel ch, Path file, long pos, boolean last, String why) throws IOException {
    corruptEntries++;
    if (last) {
      ch.truncate(pos);
      log.warn("spool {}: {} at byte {} of {} (a write cut short); truncated there", dir, why, pos, file.getFileName());
    } else {
      log.warn("spool {}: {} at byte {} of {}; the rest of that segment is skipped", dir, why, pos, file.getFileName());
    }
  }

  private static int readFully(FileChannel ch, ByteBuffer buf, long pos) throws IOException {
    int total = 0;
    while (buf.hasRemaining()) {
      int n = ch.read(buf, pos + total);
      if (n < 0) break;
      total += n;
    }
    return total;
  }

  private void roll() throws IOException {
    if (active != null) {
      active.close();
      activeSegment++;
    }
    active = FileChannel.open(segmentPath(activeSegment), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.APPEND);
    activeSize = active.size();
  }

  /** Persists the head position and deletes segments wholly before it. */
  private void moveHead() throws IOException {
    long seg;
    long off;
    Ref first = entries.peekFirst();
    if (first != null) {
      seg = first.segment;
      off = first.offset;
    } else {
      // empty: start the next append on a fresh segment and let every old one go
      if (active != null) {
        active.close();
        active = null;
        activeSegment++;
      }
      activeSize = 0;
      seg = activeSegment;
      off = 0;
    }
    Path tmp = dir.resolve(HEAD_FILE + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ch.write(ByteBuffer.wrap((seg + " " + off + "\n").getBytes(StandardCharsets.US_ASCII)));
      if (fsync) ch.force(true);
    }
    Files.move(tmp, dir.resolve(HEAD_FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    for (var e : segments().entrySet()) {
      if (e.getKey() < seg) Files.deleteIfExists(e.getValue());
    }
  }

  private byte[] read(Ref r) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(r.length);
    try (FileChannel ch = FileChannel.open(segmentPath(r.segment), StandardOpenOption.READ)) {
      if (readFully(ch, buf, r.offset + HEADER) < r.length) {
        throw new IOException("spool segment " + r.segment + " shrank under entry at byte " + r.offset);
      }
    }
    return buf.array();
  }

  // ---- entry payload: [int count] then per record [utf topic][long ts][utf id][int n][key][int n][value] ----

  static byte[] encode(List<SpooledRecord> batch) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 * batch.size());
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(batch.size());
      for (SpooledRecord r : batch) {
        out.writeUTF(r.topic());
        out.writeLong(r.timestampMillis());
        out.writeUTF(r.id());
        out.writeInt(r.key().length);
        out.write(r.key());
        out.writeInt(r.value().length);
        out.write(r.value());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array stream does not fail
    }
    return bytes.toByteArray();
  }

  static List<SpooledRecord> decode(byte[] payload) throws IOException {
    try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(payload))) {
      int count = in.readInt();
      if (count < 0 || count > payload.length) throw new IOException("bad record count " + count);
      List<SpooledRecord> out = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        String topic = in.readUTF();
        long ts = in.readLong();
        String id = in.readUTF();
        byte[] key = in.readNBytes(checkedLength(in.readInt(), payload.length));
        byte[] value = in.readNBytes(checkedLength(in.readInt(), payload.length));
        out.add(new SpooledRecord(topic, ts, id, key, value));
      }
      return out;
    }
  }

  private static int checkedLength(int n, int max) throws IOException {
    if (n < 0 || n > max) throw new IOException("bad field length " + n);
    return n;
  }
}
