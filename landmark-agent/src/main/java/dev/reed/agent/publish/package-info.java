/**
 * Publishing samples to Kafka without loss or duplicates: a round's records grouped into batches
 * on the spool, the spool drained oldest first as the broker acknowledges, and a read-back of what
 * reached the broker after an ambiguous failure.
 */
package dev.reed.agent.publish;
