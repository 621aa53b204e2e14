/**
 * Where an IP address is and which network announces it: {@link dev.reed.geo.IpLocator} reads
 * IP-to-location and IP-to-AS databases (MaxMind DB files through MaxMind's reader, and the CSV
 * layouts of the ip-location-db project), and {@link dev.reed.geo.IpRangeCsvWriter} writes those
 * CSV layouts for emulated hosts.
 */
package dev.reed.geo;
