package dev.reed.geo;

import java.io.IOException;
import java.net.InetAddress;
import java.util.Optional;

/** One database file: what it says about an address. */
interface IpTable<T> extends AutoCloseable {
  /** What the file says about {@code address}; empty when it does not know it. */
  Optional<T> lookup(InetAddress address) throws IOException;

  /** The file, its format and size, for the log. */
  String describe();

  @Override
  void close();
}
