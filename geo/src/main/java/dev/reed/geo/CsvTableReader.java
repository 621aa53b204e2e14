package dev.reed.geo;

import dev.reed.proto.Endpoints;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Reads an ip-location-db CSV file ({@code .csv}, or {@code .csv.gz}) into a {@link RangeTable}.
 * Rows must be sorted by range start and disjoint, as the project publishes them; equal values
 * are shared, since a city or an AS covers many ranges.
 */
final class CsvTableReader {
  private CsvTableReader() {}

  static RangeTable<Object> read(Path file, TableKind kind) throws IOException {
    RangeTable.Builder<Object> table = new RangeTable.Builder<>();
    Map<Object, Object> shared = new HashMap<>();
    int columns = 2 + kind.csvFields().size();
    int v4 = 0;
    int v6 = 0;
    try (InputStream raw = Files.newInputStream(file);
        InputStream in = file.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
        CSVParser csv = CSVFormat.DEFAULT.parse(reader)) {
      for (CSVRecord row : csv) {
        long line = row.getRecordNumber(); // no field spans lines in these files
        if (line == 1 && row.get(0).strip().equalsIgnoreCase("ip_range_start")) continue; // a header row
        try {
          if (row.size() != columns) {
            throw new IllegalArgumentException("expected " + columns + " columns (ip_range_start, ip_range_end, "
                + String.join(", ", kind.csvFields()) + ") for a " + kind.label() + " database, found " + row.size());
          }
          InetAddress first = address(row.get(0));
          InetAddress last = address(row.get(1));
          if ((first instanceof Inet4Address) != (last instanceof Inet4Address)) {
            throw new IllegalArgumentException("range mixes IPv4 and IPv6: " + row.get(0) + " - " + row.get(1));
          }
          List<String> fields = new ArrayList<>(row.size() - 2);
          for (int i = 2; i < row.size(); i++) fields.add(row.get(i));
          Optional<Object> value = kind.fromCsv(fields);
          if (value.isEmpty()) continue; // a range the database knows nothing useful about
          if (!table.add(IpKey.of(first), IpKey.of(last), shared.computeIfAbsent(value.get(), v -> v))) continue;
          if (first instanceof Inet4Address) v4++; else v6++;
        } catch (IllegalArgumentException e) {
          throw new IOException(file + " line " + line + ": " + e.getMessage(), e);
        }
      }
    } catch (java.io.UncheckedIOException e) {
      throw new IOException(file + ": " + e.getCause().getMessage(), e.getCause()); // commons-csv wraps read errors
    } catch (java.util.zip.ZipException e) {
      throw new IOException(file + ": not a gzip file: " + e.getMessage(), e);
    }
    RangeTable<Object> built = table.build(file + " (CSV, " + kind.label() + ", " + v4 + " IPv4 + " + v6 + " IPv6 ranges"
        + (table.clipped() > 0 ? ", " + table.clipped() + " overlapping clipped" : "") + ")");
    if (built.size() == 0) throw new IOException(file + ": no " + kind.label() + " ranges in it");
    return built;
  }

  private static InetAddress address(String text) {
    String t = text.strip();
    if (!t.isEmpty() && t.chars().allMatch(Character::isDigit)) {
      throw new IllegalArgumentException("numeric address '" + t + "': the '-num' files are not supported, use the address form");
    }
    return Endpoints.literal(t);
  }
}
