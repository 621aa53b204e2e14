package dev.reed.geo;

import com.maxmind.db.InvalidDatabaseException;
import com.maxmind.db.Metadata;
import com.maxmind.db.Reader;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;

/**
 * A MaxMind DB file read by MaxMind's reader (memory-mapped, nothing parsed by hand). An IPv4-only
 * database is never asked about an IPv6 address: the reader would walk its first 32 bits and
 * answer for an unrelated IPv4 address.
 */
final class MmdbTable implements IpTable<Object> {
  private final Path file;
  private final TableKind kind;
  private final Reader reader;
  private final Metadata metadata;

  private MmdbTable(Path file, TableKind kind, Reader reader) {
    this.file = file;
    this.kind = kind;
    this.reader = reader;
    this.metadata = reader.getMetadata();
  }

  static MmdbTable open(Path file, TableKind kind) throws IOException {
    Reader reader;
    try {
      reader = new Reader(file.toFile());
    } catch (InvalidDatabaseException e) {
      throw new IOException(file + ": not a valid MaxMind DB file (" + e.getMessage() + ")", e);
    } catch (IOException | RuntimeException e) {
      throw new IOException(file + ": cannot open as a MaxMind DB file (" + e + ")", e);
    }
    String refusal = kind.refusal(reader.getMetadata().getDatabaseType());
    if (refusal != null) {
      reader.close();
      throw new IOException(file + " " + refusal);
    }
    return new MmdbTable(file, kind, reader);
  }

  @Override
  @SuppressWarnings("unchecked")
  public Optional<Object> lookup(InetAddress address) throws IOException {
    if (address instanceof Inet6Address && metadata.getIpVersion() == 4) return Optional.empty();
    Map<String, Object> record = reader.get(address, Map.class);
    return record == null ? Optional.empty() : kind.fromMmdb(record);
  }

  @Override
  public String describe() {
    return file + " (MMDB '" + metadata.getDatabaseType() + "', IPv" + metadata.getIpVersion() + ", built "
        + metadata.getBuildDate().toInstant().atOffset(ZoneOffset.UTC).toLocalDate() + ")";
  }

  @Override
  public void close() {
    try {
      reader.close();
    } catch (IOException e) {
      // a memory-mapped reader has nothing to flush; closing only drops the mapping
    }
  }
}
