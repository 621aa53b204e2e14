/**
 * The on-disk spool of sample batches Kafka has not acknowledged yet, so an outage or a restart
 * loses no measurements.
 */
package dev.reed.agent.spool;
