package dev.reed.geo;

import java.io.BufferedWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Writes the ip-location-db CSV layouts that {@link IpLocator} reads, one single-address range per
 * host: the testbed describes its emulated hosts this way, so the system under test reads the same
 * kind of file as in production. Rows are sorted by address (IPv4 first), no header, as published.
 */
public final class IpRangeCsvWriter {
  private IpRangeCsvWriter() {}

  /**
   * City layout: {@code start,end,country_code,state1,state2,city,postcode,latitude,longitude,timezone}
   * (the fields a host has no value for stay empty).
   */
  public static void writeLocations(Path file, Map<InetAddress, Location> hosts) throws IOException {
    write(file, hosts, l -> List.of(l.countryCode(), "", "", "", "", plain(l.latitudeDeg()), plain(l.longitudeDeg()), ""));
  }

  /** AS layout: {@code start,end,autonomous_system_number,autonomous_system_organization}. */
  public static void writeAsns(Path file, Map<InetAddress, Asn> hosts) throws IOException {
    write(file, hosts, a -> List.of(Long.toString(a.number()), a.organization()));
  }

  private static <T> void write(Path file, Map<InetAddress, T> hosts, Function<T, List<String>> fields) throws IOException {
    List<Map.Entry<InetAddress, T>> rows = new ArrayList<>(hosts.entrySet());
    rows.sort(Comparator.comparing(e -> IpKey.of(e.getKey())));
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        CSVPrinter csv = new CSVPrinter(out, CSVFormat.DEFAULT.builder().setRecordSeparator('\n').get())) {
      for (Map.Entry<InetAddress, T> row : rows) {
        String ip = row.getKey().getHostAddress();
        List<String> record = new ArrayList<>(List.of(ip, ip));
        record.addAll(fields.apply(row.getValue()));
        csv.printRecord(record);
      }
    }
  }

  private static String plain(double degrees) {
    return BigDecimal.valueOf(degrees).stripTrailingZeros().toPlainString();
  }
}
