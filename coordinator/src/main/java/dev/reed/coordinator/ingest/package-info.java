/**
 * RTT samples from Kafka into per-target and landmark-mesh windows (validated, replayed from
 * recent offsets on every partition assignment), with dead-lettering of records that cannot be
 * used.
 */
package dev.reed.coordinator.ingest;
