package dev.reed.geo;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** {@link IpLocator} over database files: the first file that knows an address answers. */
final class DatabaseLocator implements IpLocator {
  private final List<IpTable<Object>> locations;
  private final List<IpTable<Object>> asns;
  private final boolean locateLoopback;
  private final AtomicLong failed = new AtomicLong();

  DatabaseLocator(List<IpTable<Object>> locations, List<IpTable<Object>> asns, boolean locateLoopback) {
    this.locations = List.copyOf(locations);
    this.asns = List.copyOf(asns);
    this.locateLoopback = locateLoopback;
  }

  static DatabaseLocator open(GeoFiles files) throws IOException {
    List<IpTable<Object>> opened = new ArrayList<>();
    try {
      List<IpTable<Object>> locations = new ArrayList<>();
      for (Path f : files.locations()) {
        locations.add(table(f, TableKind.LOCATION));
        opened.add(locations.getLast());
      }
      List<IpTable<Object>> asns = new ArrayList<>();
      for (Path f : files.asns()) {
        asns.add(table(f, TableKind.ASN));
        opened.add(asns.getLast());
      }
      return new DatabaseLocator(locations, asns, files.locateLoopback());
    } catch (IOException | RuntimeException e) {
      opened.forEach(IpTable::close);
      throw e;
    }
  }

  private static IpTable<Object> table(Path file, TableKind kind) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException(kind.label() + " database " + file + ": no such file");
    }
    if (!Files.isReadable(file)) throw new IOException(kind.label() + " database " + file + ": not readable");
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".mmdb")) return MmdbTable.open(file, kind);
    if (name.endsWith(".csv") || name.endsWith(".csv.gz")) return CsvTableReader.read(file, kind);
    throw new IOException(kind.label() + " database " + file + ": unknown format; expected .mmdb, .csv or .csv.gz");
  }

  @Override
  public Optional<Location> locate(InetAddress address) {
    return first(locations, address).map(Location.class::cast);
  }

  @Override
  public Optional<Asn> asn(InetAddress address) {
    return first(asns, address).map(Asn.class::cast);
  }

  private Optional<Object> first(List<IpTable<Object>> tables, InetAddress address) {
    if (address == null || !AddressScope.isLocatable(address, locateLoopback)) return Optional.empty();
    for (IpTable<Object> t : tables) {
      try {
        Optional<Object> v = t.lookup(address);
        if (v.isPresent()) return v;
      } catch (IOException | RuntimeException e) {
        failed.incrementAndGet(); // corrupt data deep in a file, or a record out of range: no answer, never an error
      }
    }
    return Optional.empty();
  }

  @Override
  public String describe() {
    if (locations.isEmpty() && asns.isEmpty()) return "no databases";
    return Stream.of(
            locations.isEmpty() ? null : "location: " + locations.stream().map(IpTable::describe).collect(Collectors.joining("; ")),
            asns.isEmpty() ? null : "AS: " + asns.stream().map(IpTable::describe).collect(Collectors.joining("; ")))
        .filter(s -> s != null).collect(Collectors.joining("; "));
  }

  @Override
  public long failedLookups() {
    return failed.get();
  }

  @Override
  public void close() {
    locations.forEach(IpTable::close);
    asns.forEach(IpTable::close);
  }
}
