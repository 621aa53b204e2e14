/**
 * {@code ./reed scale}: the scale harness. A synthetic feed of landmark samples into
 * Kafka, coordinator replicas as separate processes, and what they cost: ingest rate, lag, time to
 * serve, memory per pair, query latency during ingest, hand-over after a kill, restart to serving.
 */
package dev.reed.cli.scale;
